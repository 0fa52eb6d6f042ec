"""The parts of an Intel TDX quote (version 4) that can be checked offline.

Layout: a 48-byte header (version u16le, attestation key type u16le, TEE type u32le, ...),
then the TD report body: ``td_attributes`` at [168:176] (bit 0 of byte 168 = debug),
``mrtd`` at [184:232], ``rtmr0..3`` at [376:568], ``report_data`` at [568:632]. The quote's
signature and certificate chain need Intel's online collateral and are not checked here.
"""

from __future__ import annotations

import base64
import binascii
import struct
from dataclasses import dataclass

QUOTE_VERSION = 4
ATTESTATION_KEY_ECDSA_P256 = 2
TEE_TYPE_TDX = 0x81
MIN_QUOTE_BYTES = 632
TD_ATTRIBUTES = slice(168, 176)
MRTD = slice(184, 232)
REPORT_DATA = slice(568, 632)
_DEBUG_BIT = 0x01


@dataclass(frozen=True, slots=True)
class Quote:
    version: int
    key_type: int
    tee_type: int
    td_attributes: bytes
    mrtd: bytes
    report_data: bytes

    @property
    def debug(self) -> bool:
        return bool(self.td_attributes[0] & _DEBUG_BIT)


def decode_quote(text: str) -> bytes | None:
    """The raw quote from hex (``0x`` optional; what every captured answer uses) or else base64
    (what the documentation says); None when it is neither."""
    body = text.strip()
    if body[:2] in ("0x", "0X"):
        body = body[2:]
    try:
        return bytes.fromhex(body)
    except ValueError:
        pass
    try:
        padded = body + "=" * (-len(body) % 4)
        altchars = b"-_" if ("-" in body or "_" in body) else None
        return base64.b64decode(padded, altchars=altchars, validate=True)
    except (binascii.Error, ValueError):
        return None


def parse_quote(raw: bytes) -> Quote:
    """The header fields and the report body; ValueError when the quote is too short."""
    if len(raw) < MIN_QUOTE_BYTES:
        raise ValueError(f"a TDX quote has at least {MIN_QUOTE_BYTES} bytes, this one has {len(raw)}")
    version, key_type, tee_type = struct.unpack_from("<HHI", raw, 0)
    return Quote(
        version=version,
        key_type=key_type,
        tee_type=tee_type,
        td_attributes=raw[TD_ATTRIBUTES],
        mrtd=raw[MRTD],
        report_data=raw[REPORT_DATA],
    )
