"""Whether a call-shaped block was performed or only shown: the reply's structure decides.

A block in a format the parser reads is performed unless the reply's structure says it is
shown. The shapes that keep it shown are structural and known to the scanner: reasoning, code
fences, inline code and HTML comments (their text never reaches this module as a block), and,
judged here from what the scanner records around the block's opener: a blockquote, a table
cell, a list or alternative item, prose running into it on its line, an HTML element that
shows code (``<details>``, ``<pre>``, ``<code>``), a heading directly above it, or a section
whose heading presents examples.

Words decide only where they address the block itself:

- **the line directly before it**: an introduction ("for example:", "the format is:", "like
  this:", "earlier I ran:", "you sent me:", "option A:", a draft held for approval, a
  condition on an earlier call's result), in the languages models write (:data:`BEFORE`);
- **the lines directly after it**: a permission request, a disclaimer, a retraction, or a
  condition on an earlier call's result (:data:`AFTER`).

A word anywhere else decides nothing. The tables are data: one row per language and kind, so
that a language is added by adding rows. Every pattern is matched against one line of bounded
length, so judging costs a bounded amount per block.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import regex

from .literals import Gates, Table, Words, alternatives, any_of, fold
from .markers import CANDIDATE
from .results import ProblemKind

LINE_CHARS = 240  # characters of a line before or after a block that are judged
AFTER_LINES = 2  # non-blank lines after a block that can address it


@dataclass(frozen=True, slots=True)
class Context:
    """What surrounds the opener of a call-shaped block, in the prose released before it."""

    line_head: str = ""  # the prose before the opener on its line (its first characters)
    line_last: str = ""  # the last non-blank character of that prose, "" if none
    region_on_line: bool = False  # another block already stands on this line before it
    before: str = ""  # the non-blank line directly before the block's line ("" if none since the last block)
    gap: bool = False  # blank lines stand between that line and the block
    heading_above: bool = False  # that line is a heading (ATX, or setext with its text above)
    section_example: bool = False  # the nearest heading above presents examples
    in_element: bool = False  # inside an open <details>, <pre> or <code> element
    intro: str = ""  # when ``before`` is a list item: the line that introduces the list ("" if none)


# (problem kind, why, words): a block shown rather than performed. ``words`` is the
# introduction or remark that decided it, or "" when the structure did; only a decision by
# words is told to the model (the structure it chose itself says enough).
@dataclass(frozen=True, slots=True)
class Shown:
    kind: ProblemKind
    why: str
    words: str = ""


# -- structure --------------------------------------------------------------------------------

# Items of a list or of a set of alternatives, at the start of a line: -, *, +, •, 1., 1),
# (1), a), (a), →, ->, =>, "Option A:" and its translations. The bullets of CJK writing
# (・, ●, ○, ■, ...), circled numbers (①) and full-width numbering ("１．") need no space after them: that is how
# those scripts set a list.
_ITEM = (
    r"[ \t]{0,3}(?:(?:[-*+•·▪►→⇒➔➜]|->|=>|\d{1,3}[.)、]|\(\d{1,3}\)|\p{L}\p{M}{0,2}[)]|\(\p{L}\p{M}{0,2}\))"
    r"(?:[ \t]|$)|(?:[・●○◦‣▸▹■□◆◇◾◽①-⑳]|\d{1,3}[．）])[ \t]*)"
)
_OPTION = (
    # an ordinal before the noun ("Première option :", "Zweite Möglichkeit:", "Второй вариант:")
    # (after an arrow, as right-to-left writing points at each: "← الطريقة الأولى:")
    r"[ \t]{0,3}(?:[←→][ \t]*)?[*_]{0,2}(?:(?:first|second|third|premi[eè]re?|deuxième|seconde?|troisième|primera|segunda|tercera|"
    r"primeira|terceira|prima|seconda|terza|erste|zweite|dritte|первый|второй|третий|перший|другий|третій|eerste|"
    r"tweede|derde|första|andra|tredje|første|anden|andre|tredje)[ \t]+(?:option|choice|alternative|variant|"
    r"opci[oó]n|opção|opzione|variante|вариант|варіант|optie|möglichkeit|possibilité|possibilidade|"
    r"possibilità|posibilidad|mogelijkheid|möjlighet|mulighed|mulighet|plan)\b|"
    r"(?:option|choice|alternativ[ea]?|variant|opci[oó]n|opção|opzione|variante|вариант|"
    r"选项|方案|オプション|案|optie|opcja|opció|opțiunea|možnost|varianta|vaihtoehto|lehetőség|seçenek|"
    r"lựa[ \t]+chọn|phương[ \t]+án|pilihan|opsi|chaguo|επιλογή|варіант|الخيار|خيار|الطريقة|طريقة|گزینه|אפשרות|विकल्प|"
    r"বিকল্প|ตัวเลือกที่|ตัวเลือก|ทางเลือกที่|ทางเลือก|옵션|방법|cách|mulighed|mulighet|möjlighet|mogelijkheid|möglichkeit|possibilité|possibilidade|"
    r"possibilità|posibilidad|alternatief|vaihtoehto|plan|plano|piano|version|versión|versão|versione|fassung|wersja|verze|versio|versiune|versie)(?:\p{M}|\u200c?ی(?!\w))*[ \t]*(?:[a-zA-Z]{1,2}|\d{1,2}|[一二三四ABC]|[АБВабв]|[ΑΒΓαβγ]|[أبج]|الف|[پ]|[אבג]|"
    r"one|two|three|uno|dos|tres|un|deux|trois|eins|zwei|drei|um|dois|três|due|один|два|три|первый|второй|"
    # ordinals written after the noun ("Pilihan pertama:", "Varianta întâi:")
    r"first|second|third|primera|segunda|tercera|primero|segundo|première|deuxième|seconde|erste|zweite|dritte|"
    r"primeira|terceira|prima|seconda|terza|перший|другий|pertama|kedua|ketiga|birinci|ikinci|pierwsza|druga|"
    r"první|druhá|eerste|tweede|första|andra|første|anden|andre|ensimmäinen|toinen|első|második|întâi|doua|"
    # and in Persian, Arabic and Hebrew ("گزینه یک:", "الخيار الثاني:", "אפשרות שנייה:")
    r"یک|دو|سه|اول|دوم|سوم|الأول|الثاني|الثالث|الأولى|الثانية|الثالثة|אחת|שתיים|שנייה|ראשונה|שלישית))\b"
)
LIST_ITEM = regex.compile(_ITEM)
# An item labelled with a letter of any script ("a)", "(b)", "б)", "ক)", "가)"): letters label
# alternatives, where numbers and bullets may count steps that are each performed.
# (Persian and Arabic name their first letter in full: "الف)", then "ب)")
LETTER_ITEM = regex.compile(
    r"[ \t]{0,3}[*_]{0,2}(?:(?:\p{L}\p{M}{0,2}|الف)[)]|\((?:\p{L}\p{M}{0,2}|الف)\))[*_]{0,2}(?:[ \t]|$)"
)
ITEM_OR_OPTION = regex.compile(f"(?:{_ITEM})|(?i:{_OPTION})")
# An alternative's label and what it does ("Option A: search the archive"): the block below it
# is that alternative, whatever the line goes on to say.
# Korean and Japanese write the number first ("1안:", "A案:")
_OPTION_AFTER = r"[ \t]{0,3}[*_]{0,2}(?:\d{1,2}|[A-Za-z]|[一二三])[ \t]?(?:안|案)"
# (Persian writes the noun with its ezafe mark, "گزینهٔ ۱" or "گزینه‌ی ۱", and may point with an arrow, "گزینهٔ ۱ ←")
OPTION_LABEL = regex.compile(f"(?i:{_OPTION}|{_OPTION_AFTER})[ \t*_]*[:：)–—\\-→←]")
BLOCKQUOTE = regex.compile(r"[ \t]{0,3}>")
TABLE_ROW = regex.compile(r"[ \t]{0,3}\|")
HEADING = regex.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]|$)")
SETEXT_UNDERLINE = regex.compile(r"[ \t]{0,3}(?:=+|-+)[ \t]*$")
# Prose that runs straight into an opener: the opener is a word in that sentence.
_SENTENCE_CHARS = frozenset(",;'\"‘“(-–—/&=+")
# Headings that open a section of examples, in the languages of BEFORE.
HEADING_EXAMPLE = regex.compile(
    r"\b(?:examples?|formats?|syntax|samples?|usage|illustrat\w*|demo\w*|templates?|reference|"
    r"ejemplos?|formato|sintaxis|exemples?|syntaxe|beispiele?|muster|exemplos?|sintassi|esempi[o]?|"
    r"пример\w*|формат\w*|синтаксис)\b|例|示例|格式|形式|サンプル",
    regex.IGNORECASE,
)
# A speaker's name in a recited transcript ("**Me:**", "assistant:"), maybe after the turn's
# number or time in brackets ("[turn 4] assistant:", "[10:32] Bot:") or before when it was
# ("Assistant (yesterday):"); a log may point with an arrow instead of a colon ("[Mon 09:14]
# assistant →").
_SPEAKER = (
    r"(?:[\[(][^\])\n]{1,24}[\])][ \t]*)?\W{0,4}(?:me|assistant|agent|bot|io|moi|ich|yo|eu|ja|já|я|我|私|アシスタント|助手|ai|model|"
    r"assistente|asistente|assistant\w*|assistent\w*|ассистент|асистент|jag|ik|tôi|aku|saya|minä|ben|εγώ|asistent|asystent|avustaja|"
    r"asisten|pembantu|trợ\s+lý|asistan|én|βοηθός|помічник|أنا|المساعد|אני|העוזר|עוזר|עוזרת|मैं|सहायक|असिस्टेंट|나|어시스턴트|دستیار|সহকারী|"
    r"অ্যাসিস্ট্যান্ট|ผู้ช่วย|asszisztens|msaidizi)"
    # and when the turn was, in brackets after the name ("Assistant (yesterday):"), full-width
    # ones too ("助手（上次）：")
    r"(?:[ \t]*[\[(（][^\])）\n]{1,24}[\])）])?(?:\W{0,4}[:：]|[ \t*_]{0,4}(?:→|->|=>))\W{0,4}"
    # a role in brackets alone, as a chat log writes it ("[assistant] TOOL_CALL_START ...")
    r"|\W{0,4}[\[(](?:assistant|agent|bot|ai|model|me|moi|ich|yo|eu|io|я|我|私|assistent\w*|assistente|asistente|"
    r"ассистент|асистент|asystent|asisten|avustaja|asszisztens|βοηθός|помічник|助手|アシスタント|어시스턴트|ผู้ช่วย|"
    r"المساعد|دستیار|सहायक|msaidizi)(?:,[ \t]*[^\])\n]{1,16})?[\])][ \t]*"
)
SPEAKER = regex.compile(_SPEAKER + "$", regex.IGNORECASE)
SPEAKER_FIRST = regex.compile(_SPEAKER, regex.IGNORECASE)
# The reader's name as a transcript labels its turns ("User", "Nutzer", "Bruger", "คุณ")
_READERS = (
    r"user|human|you|nutzer|benutzer|du|usuario|usuaria|tú|utilisateur|utilisatrice|toi|utente|usuário|usuária|"
    r"você|пользователь|gebruiker|użytkownik|kullanıcı|用户|ユーザー|사용자|उपयोगकर्ता|ব্যবহারকারী|người\s+dùng|"
    r"pengguna|المستخدم|کاربر|משתמש|käyttäjä|felhasználó|utilizator(?:ul)?|χρήστης|користувач|uživatel|"
    r"bruger(?:en)?|bruker(?:en)?|användare(?:n)?|usuari|mtumiaji|ผู้ใช้|คุณ|ty|te|आप|तुम|আপনি|তুমি"
)
# Another speaker's label that opens a line of a transcript ("Tool:", "User:", "[tool]")
# (a dash may open each turn, as a dialogue is set in many languages: "— Você: ...", and a quote
# mark, as a transcript recited in a blockquote: "> **आप:** ...")
_TURN = regex.compile(
    r"[ \t]{0,3}(?:>[ \t]?)?(?:[-–—][ \t]+)?[*_]{0,2}(?:[\[(][^\])\n]{1,24}[\])]|(?:"
    + _READERS
    + r"|tool|system|function|observation|result|"
    r"werkzeug|herramienta|vous|outil|tu|strumento|ferramenta|ты|вы|инструмент|jij|gereedschap|narzędzie|araç|alat|你|"
    r"工具|あなた|ツール|도구|यूज़र|टूल)[*_]{0,2}[ \t]*[:：])",
    regex.IGNORECASE,
)
# The reader's own turn, labelled, opening a line that goes on ("User: can you find ...", "[Bruger]
# Kan du huske ...", "คุณ: ช่วยจำ..."): a block right under it is recited, as a reply labels no turn
# of the reader's before what it does now
_READERS_TURN = regex.compile(
    r"[ \t]{0,3}(?:[-–—][ \t]+)?[*_]{0,2}[\[(]?(?:"
    + _READERS
    + r")[\])]?[*_]{0,2}(?:[ \t]*[:：]|(?<=[\])])[ \t])[ \t]*\S",
    regex.IGNORECASE,
)


def readers_turn(before: str) -> bool:
    """Whether the line directly before a block is a labelled turn of the reader's (:data:`_READERS_TURN`)."""
    return _READERS_TURN.match(before) is not None


# The marks a speaker's name ends with or stands in, one of which the line must hold
_SPEAKER_MARKS = (":", "：", "→", "->", "=>", "[", "(")


def speaks_first(line: str) -> bool:
    """Whether ``line`` opens with the writer's name as a speaker (:data:`SPEAKER_FIRST`)."""
    return any(mark in line for mark in _SPEAKER_MARKS) and SPEAKER_FIRST.match(line) is not None


def recited_turn(before: str, after: str) -> bool:
    """Whether a block stands between two turns of a transcript: the line before it opens with
    the writer's name as a speaker and goes on ("Me: I'll save your train time."), and the line
    after it opens with another speaker's label ("Tool: ok"). A reply writes no label before
    what it does now."""
    if not before.strip() or SPEAKER_FIRST.match(before) is None:
        return False
    first = after.lstrip(" \t\r\n").split("\n", 1)[0]
    return bool(first) and _TURN.match(first) is not None


# A thematic break alone on its line ("---", "* * *"), which sets a recited passage apart
_BREAK = regex.compile(r"[ \t]{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")


def recited_exchange(above: str, before: str) -> bool:
    """Whether a block ends a recited exchange: the line before it opens with the writer's name
    as a speaker ("Assistente: Fatto!"), and the line above that with another speaker's label
    ("Utente: ricordati che sono celiaca"), or is a thematic break that opens a passage set apart
    ("---" / "Assistant: Noted!"). A reply writes no labelled turns before what it does now."""
    return SPEAKER_FIRST.match(before) is not None and (
        _TURN.match(above) is not None or _BREAK.match(above) is not None
    )


# The dashes that open the turns of a dialogue, as many languages set one
DIALOGUE_DASHES = "—–―"
# A turn of such a dialogue ("— Запомни, что у меня аллергия.", "– Noted!"): the dash, a space,
# and a sentence that closes with its stop
_DASH_TURN = regex.compile(r"[ \t]{0,3}[" + DIALOGUE_DASHES + r"][ \t]+\w[^\n]*[.!?…。！？][\"»”]?[ \t]*$")


def dash_exchange(above: str, before: str) -> bool:
    """Whether a block ends a dialogue recited with dashes: the line before it and the line above
    that are each a turn (:data:`_DASH_TURN`). A reply sets no turns of a dialogue right before
    what it does now, and the items of a list it makes seldom close on a stop."""
    return _DASH_TURN.match(before) is not None and _DASH_TURN.match(above) is not None


# A time before this turn, named on the line before a block ("last week", "in our chat on Tuesday",
# "上次"), and the reader's answer then, told on the line after it ("You then said", "Y tú me
# dijiste", "Danach hast du gesagt", "后来你说"): the block is recited from that earlier exchange.
_EARLIER = regex.compile(
    r"(?<!\w)(?:yesterday|last\s+(?:week|time|month|night|chat|conversation)|earlier\s+today|our\s+(?:last|previous)\s+"
    r"(?:chat|conversation|exchange)|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|ayer|"
    r"la\s+semana\s+pasada|la\s+última\s+vez|(?:del|el)\s+(?:lunes|martes|miércoles|jueves|viernes|sábado|domingo)|"
    r"hier|la\s+semaine\s+dernière|la\s+dernière\s+fois|gestern|letzte[nr]?\s+(?:woche|mal)|vom\s+(?:montag|"
    r"dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)|ieri|la\s+settimana\s+scorsa|l['’]ultima\s+volta|ontem|"
    r"semana\s+passada|da\s+última\s+vez|вчера|на\s+прошлой\s+неделе|в\s+прошлый\s+раз|gisteren|vorige\s+week)"
    r"(?!\w)|上次|昨天|上周|上回|前回|昨日|先週",
    regex.IGNORECASE,
)
# (told as what came next: "Y tú me dijiste", "You then said"; "You said Bath, so it's saved" is
# about this turn)
_YOU_ANSWERED = re.compile(
    r"^\W{0,3}(?:(?:(?:and|then|later|afterwards|after\s+that),?\s+you|you\s+(?:then|later))\s+(?:said|told\s+me|"
    r"replied|answered|asked)|(?:y|luego|después)\s+(?:tú\s+)?me\s+(?:dijiste|contestaste|respondiste|pediste)|"
    r"(?:et|puis|ensuite)\s+(?:tu\s+)?m['’]as\s+(?:dit|répondu|demandé)|(?:danach|dann|und\s+dann|später)\s+hast\s+du|"
    r"(?:e|poi|dopo)\s+mi\s+hai\s+(?:detto|risposto|chiesto)|(?:e|depois)\s+(?:você\s+)?me\s+(?:disse|respondeu|"
    r"pediu)|(?:а\s+)?(?:потом|затем)\s+ты\s+(?:сказал|ответил|написал)а?|(?:daarna|toen)\s+zei\s+je)(?!\w)|"
    r"^\W{0,3}(?:后来|然后)你(?:说|回复|告诉我)|^\W{0,3}その後",
    re.IGNORECASE,
)


def recited_earlier(before: str, after: str) -> bool:
    """Whether the line before a block names a time before this turn and the first line after
    it tells what the reader answered then: the block is recited from an earlier exchange."""
    # (the line after first, by its first word: most lines after a block open with none of these)
    first = after.lstrip(" \t\r\n")[:LINE_CHARS].split("\n", 1)[0]
    if _first_word(first) not in _ANSWER_OPENS and not first.lstrip(_LEAD).startswith(("后来", "然后", "その後")):
        return False
    return _YOU_ANSWERED.match(first) is not None and _EARLIER.search(before[-LINE_CHARS:]) is not None


# The first words of the lines :data:`_YOU_ANSWERED` reads
_ANSWER_OPENS = frozenset(
    [
        "and",
        "then",
        "later",
        "afterwards",
        "after",
        "you",
        "y",
        "luego",
        "después",
        "et",
        "puis",
        "ensuite",
        "danach",
        "dann",
        "und",
        "später",
        "e",
        "poi",
        "dopo",
        "depois",
        "а",
        "потом",
        "затем",
        "daarna",
        "toen",
    ]
)


def _first_word(line: str) -> str:
    """The first word of ``line`` in lower case, without the punctuation around it."""
    words = line.lstrip(_LEAD).split(None, 1)
    return words[0].rstrip(",.:;!?").lower() if words else ""


# (a line of three or more backticks closes a code block, maybe one set aside just above: no quote)
QUOTE_ONLY = regex.compile(r"[ \t]*(?!`{3,}[ \t]*$)[\"“”„«»'‘’`]+[ \t]*$")
# A sentence ends at . ! ? after a word of three letters or more (not "e.g." or "z. B."), after
# a closing bracket or quotation mark of any script ("« souviens-toi ». Voilà :"), at the
# full-width marks, or at the danda of Hindi and Bengali ("... गलत लिख दी थी। ठीक कर रहा हूँ:"); after a lower-case word of two letters only where a capital follows ("only
# said so. It's updated now:"), as an abbreviation of two ("ca.", "vs.") seldom precedes one;
# and inside a closing quotation mark where a capital follows (`You wrote: "... January." Great,
# noting it:`): the quotation ended a sentence, and what the writer says next is a new one;
# and after a capitalised word of two letters where a capital follows, as a name's last word
# ("... và chọn Hội An. Mình ghi lại nhé:"), unless it is a title or a short form ("Mr.", "Dr.").
# A clause ends at a semicolon.
_SENTENCE_END = regex.compile(
    r"(?:(?<=\w{3})|(?<=[)\]\"'”’“»›」』€$£¥%°]))[.!?]+[ \t]+|(?<=(?<!\w)\p{Ll}{2})[.!?]+[ \t]+(?=\p{Lu})|[。！？]|[।॥][ \t]*|"
    r"(?<=\w)[.!?]+[\"”’»›」』]+[ \t]+(?=\p{Lu})|"
    r"(?<=(?<!\w)\p{Lu}\p{Ll})(?<!(?<!\w)(?:Mr|Dr|Ms|St|Jr|Sr|Mt|Hr|Fr|Nr|No|Co|Pr|Vs|Ph|Bd|Ca|Cf|Ex|Gr|Rd|Av))"
    r"[.!?]+[ \t]+(?=\p{Lu})|"
    # and after a capital letter alone that a lower-case word names, where a capital follows
    # ("... en formato talla M. Me lo apunto:", "size M. Noting it:"); a name's initial follows one
    # with a capital ("John F. Kennedy")
    r"(?<=\p{Lu})(?<=(?<!\w)\p{Ll}{2,}[ \t]\p{Lu})[.!?]+[ \t]+(?=\p{Lu})"
)
# Stops that only some lines hold, looked for in those alone (a branch of the pattern above tried
# at every position of every line cost a tenth of a whole parse): French sets a space before "?"
# and "!" ("... de ta mère ? D'abord, ..."), and Thai ends a sentence on its polite particle and a
# space, with no stop ("...ด้วยนะครับ ขอผม...")
_SPACED_STOP = regex.compile(r"(?<=\w)[ \u00a0\u202f][?!]+[ \t]+(?=\p{Lu})")
# (the polite particles that close a Thai sentence or question)
_THAI_CLOSES = ("ครับ", "ค่ะ", "คะ", "จ้ะ", "จ้า")
_THAI_PARTICLE = "(?:" + "|".join(_THAI_CLOSES) + ")"
_THAI_END = regex.compile(_THAI_PARTICLE + r"[ \t]+(?=\p{Thai})")
# An emoji where a capital follows stands where the stop would ("... de ver jogo 😂 Vou lembrar
# disso:"); looked for only in a line that is not all ASCII, which costs an ASCII line nothing
_EMOJI_END = regex.compile(r"\p{Extended_Pictographic}\ufe0f?[ \t]+(?=\p{Lu})")
_CLAUSE_END = regex.compile(r"(?<=\w)[;]+[ \t]+|；")
# Words that set a block after the one before it, in order ("then", "sau đó", "danach"): never
# an option's label, whatever else they spell ("sau" is Romanian for "or").
_SEQUENCE = (
    r"(?:(?:and\s+)?then|and|followed\s+by|after\s+that|next|y\s+(?:luego|después)|luego|puis|et\s+puis|"
    r"ensuite|dann|und\s+dann|danach|e\s+depois|depois|e\s+poi|poi|потом|затем|а\s+потом|然后|接着|その後|次に|"
    r"en\s+dan|daarna|och\s+sedan|sedan|og\s+så|derefter|deretter|a\s+pak|potom|a\s+potem|potem|потім|а\s+потім|"
    r"ja\s+sitten|sitten|aztán|majd|și\s+apoi|apoi|i\s+després|després|sonra|ardından|και\s+μετά|μετά|sau\s+đó|"
    r"lalu|kemudian|setelah\s+itu|ثم|بعد\s+ذلك|سپس|ואז|אחר\s+כך|फिर|उसके\s+बाद|তারপর|จากนั้น|그\s+다음|그다음|"
    r"kisha|halafu)"
)
CONTINUATION = regex.compile(_SEQUENCE + r"[ \t,]*[:：][ \t]*$", regex.IGNORECASE)
_THOUGHT = regex.compile(r"[ \t]*(?:Thought|Pensamiento|Pensée|Gedanke|Pensamento|Pensiero|Мысль|思考)[ \t]*[:：]")
_ELEMENT = regex.compile(r"<(/?)(details|pre|code)\b[^>\n]{0,200}>", regex.IGNORECASE)


_OPENS = "«„「『‹"
_CLOSES = {"»": "«", "”": "“", "」": "「", "』": "『", "›": "‹"}
_QUOTE_MARK = regex.compile(r'["“”«»„「」『』‹›]')


# Any mark that can open a quotation (the standard library's engine finds a class of characters
# faster than a test per mark)
_OPENING_MARK = re.compile('["“«„「『‹]').search


def _closes_after_digit(line: str, i: int) -> bool:
    # ('"my locker is 42". Saving that:' and '"starts nov 4" — on it.' close their quotes; '55"
    # screen' is an inch mark)
    nxt = line[i + 1 : i + 2]
    return not nxt or nxt in ".,;:!?)" or line[i + 1 : i + 4] in (" — ", " – ", " - ")


def opens_quote(line: str) -> bool:
    """Whether ``line`` opens a quotation it leaves open: at its start or after a colon ("My
    instructions say: «To call a tool, write"), so that what follows it, up to the closing mark,
    is quoted text (a recited prompt or message), whatever the language. Only double quotation
    marks count; a stray one inside a word or after a digit (an inch mark) opens nothing."""
    if _OPENING_MARK(line) is None:
        return False
    stack: list[tuple[str, int]] = []  # open marks and where they stand
    # Only the quotation marks move the stack: visited alone, not every character of the line.
    for m in _QUOTE_MARK.finditer(line):
        i, ch = m.start(), m.group()
        prev = line[i - 1] if i else ""
        top = stack[-1][0] if stack else ""
        if ch in _OPENS:
            if ch == "«" and top == "»":
                stack.pop()  # »reversed« quotes (German, Danish)
            else:
                stack.append((ch, i))
        elif ch == "“":
            if top == "„":
                stack.pop()  # „German“
            else:
                stack.append((ch, i))
        elif ch in _CLOSES:
            if top == _CLOSES[ch] or (ch == "”" and top == "„"):  # „Polish”
                stack.pop()
            elif ch == "»" and not stack:
                stack.append((ch, i))
        elif ch == '"' and (not prev.isdigit() or (top in ('"', "„", "“") and _closes_after_digit(line, i))):
            if top in ('"', "„", "“"):  # „so" and “so" close with a straight mark too
                stack.pop()
            else:
                stack.append((ch, i))
    if not stack:
        return False
    head = line[: stack[0][1]].rstrip(" \t*_")
    # (after a colon in prose, not a key's in JSON)
    return not head or (head.endswith((":", "：")) and "{" not in head)


def in_element(recent: str) -> bool:
    """Whether ``recent`` (the prose just before a block) leaves a <details>, <pre> or <code>
    element open."""
    if "<" not in recent:
        return False
    depth = {"details": 0, "pre": 0, "code": 0}
    for m in _ELEMENT.finditer(recent):
        tag = m.group(2).lower()
        depth[tag] = max(0, depth[tag] + (-1 if m.group(1) else 1))
    return any(depth.values())


# -- words: the line directly before ------------------------------------------------------------

_COLON = r"[ \t]*(?:[:：]|\.\.\.|…)?[ \t*_]*$"  # what may end an introduction's line
# Swahili verbs of sending or giving, and the relative markers of its noun classes, that the
# "you sent me" row builds its forms from (one list each, so the forms cannot drift apart)
_SW_SEND = "(?:tumia|pa|andikia|bandikia)"
_SW_RELATIVE = "(?:cho|yo|lo|o|vyo|zo)"
_ENDS = r"[^\n]*[:：][ \t*_]*$"  # a line that ends with a colon
# A line that opens with "or" and ends with a colon stands between two blocks offered as
# alternatives ("Either: <block> or, if you'd rather: <block>"): neither is performed.
_OR_OPEN = (
    r"^(?!\W{0,4}" + _SEQUENCE + r"(?!\w))"
    r"(?:\W{0,4}(?:or|alternatively|another\s+(?:way|option)|otra\s+(?:forma|manera|opción)|une\s+autre\s+(?:façon|option)|"
    r"autrement|eine\s+andere\s+(?:möglichkeit|variante)|auf\s+andere\s+weise|un['’]altra\s+(?:opzione|possibilità)|"
    r"outra\s+(?:forma|opção)|o(?=\s*,)|o\s+bien|ya\s+sea|ou|ou\s+bien|ou\s+alors|ou\s+então|soit(?!\s*,)|oder|oppure|"
    r"in\s+alternativa|ofwel|of\s+anders|eller|lub|albo|nebo|anebo|или|либо|або|ya\s+da|veya|yahut|atau|hoặc|"
    r"tai|vagy|sau|ή|είτε|o\s+bé|או|أو|یا|या|अथवा|অথবা|หรือ|아니면|또는)\b|\W{0,4}(?:或者|或是|要么|または|あるいは|もしくは|それか(?!ら)))"
)
# (or the word alone on its line, between two blocks: "o bien", "or")
OR_NEXT = regex.compile(_OR_OPEN + r"(?:" + _ENDS + r"|[ \t*_…]*$)", regex.IGNORECASE)
OR_ALONE = regex.compile(_OR_OPEN + r"[ \t*_…:：]*$", regex.IGNORECASE)
_OR_ALONE_CHARS = 24  # (a line longer than that holds more than the word for "or")


# A quotation closed on the same line, its text short and unbroken, right after a noun or after
# "like" ("a format like «...»"; not "the format for «...»", where it names what the format serves).
_SPELLED = (
    r"(?:\s+(?:du\s+genre|de\s+type|comme|like|such\s+as|tipo|como|come|wie|вида|типа))?\s*"
    r"(?:«[^«»\n]{1,80}»|“[^“”\n]{1,80}”|„[^„“”\n]{1,80}[“”]|\"[^\"\n]{1,80}\"|「[^「」\n]{1,80}」)"
)

# (a word or two that qualify the noun, closed by a comma, may stand between: "un formato
# sencillo, tipo «hábito: detalle»")
_QUALIFIED = r"(?:(?:[ \t]+[\w-]+){1,2},)?"


def _adverb(words: str) -> str:
    """``words`` ("for example", "an example") at the start of a sentence or just before its colon."""
    return rf"^\W{{0,4}}(?:{words})(?!\w)|(?<!\w)(?:{words})" + _COLON


# The participle of a step that would have run the block, in the table's languages
_DONE_STEP = (
    r"(?:saved|stored|run|executed|sent|changed|written|gespeichert|ausgeführt|geändert|gesendet|abgeschickt|"
    r"eingetragen|enregistré|sauvegardé|exécuté|envoyé|modifié|guardado|ejecutado|enviado|cambiado|salvato|"
    r"eseguito|inviato|modificato|registrato|opgeslagen|uitgevoerd|verstuurd|sparat|skickat|lagret|gemt|"
    r"сохранено|сохранил|сохранила|записано|отправлено)(?!\w)"
)


# "Else" or "more" after "nothing": the rest, not the block
_NOTHING_ELSE = (
    r"(?![ \t]+(?:else|more|anderes|mehr|d['’]autre|de\s+plus|más|altro|di\s+più|anders|mer|другого|больше)(?!\w))"
)


# For each kind, per language: what presents the block that follows as something shown. A row
# is a pattern matched (ignoring case) against the line directly before the block. ("like" ending
# the line after its subject is a wish, "if you like:", not the start of a comparison.)
BEFORE: dict[ProblemKind, dict[str, str]] = {
    "example": {
        "en": r"\b(?:would\s+be\s+(?:this|these|the\s+following)|for\s+(?:example|instance)|e\.\s?g\.?|examples?|samples?|for\s+reference|like\s+(?:this|that|so)|"
        r"as\s+follows|looks?\s+like|would\s+look|(?:would\s+be|is|are)\s+written(?:\s+as)?|written\s+as|"
        r"(?:the|call|tool)\s+format(?:\s+is)?|format\s+is|syntax(?:\s+is)?|something\s+like|template|"
        r"would\s+be|illustration|(?<!\b(?:you|you['’]d|would|we|they|I)\s)like|"
        # (not where it ends a clause of the reader's: "the one you're sticking with:", "what we settled on with:")
        r"(?<!\b(?:you|we|they)(?:['’](?:re|ve|ll|d))?\s+\w+\s)with|using|via|as|(?:a\s+)?call\s+like|to\s+illustrate|by\s+way\s+of\s+example|"
        r"purely\s+as\s+an\s+example|hypothetically|imagine)"
        + _COLON
        + r"|^\W{0,4}(?:an?\s+)?(?:examples?|samples?|illustration|demo)\b"
        + _ENDS
        + r"|\b(?:here['’]?s|here\s+is|this\s+is)\s+(?:an?\s+)?(?:examples?|samples?|illustration)\b"
        + r"|\blike\s+(?:this|so)\b"
        + _ENDS
        + r"|\bthe\s+tools\s+I\s+(?:have|can\s+use)\b|\bthe\s+shape\s+of\b"
        + r"|\btypical\s+arguments\b|\beach\s+(?:call|tool)\b"
        + _ENDS,
        "es": r"\b(?:ser[ií]a\s+(?:esta|este|esto|la\s+siguiente|el\s+siguiente)|por\s+ejemplo|p\.\s?ej\.?|ejemplos?|el\s+formato\s+es|formato|se\s+ver[ií]a\s+(?:así|as[ií])|"
        r"(?:quedar[ií]a|ser[ií]a)\s+(?:más\s+o\s+menos\s+)?así|así|de\s+esta\s+forma|como\s+este|como\s+esto|"
        r"a\s+modo\s+de\s+ejemplo|así\s+(?:quedaría|se\s+vería|sería)|pongamos\s+por\s+caso|algo\s+(?:así|como)|un\s+poco\s+como|"
        r"(?:del|al)\s+estilo\s+de\s+(?:esta|este|esto|la\s+siguiente|el\s+siguiente)|algo\s+así,?\s+(?:en|in)\s+\w+)"
        + _COLON
        # (colloquial "like:" after a comma: "puedes buscar por fechas, tipo:")
        + r"|[,，][ \t]*tipo(?:[ \t]+así)?"
        + _COLON,
        "fr": r"\b(?:serait\s+(?:celle-ci|celui-ci|ceci|la\s+suivante|le\s+suivant)|par\s+exemple|exemples?|le\s+format\s+est|(?<!\b(?-i:\p{Lu}{2,5})\s)format|comme\s+ceci|comme\s+ça|comme\s+cela|"
        r"ainsi|le\s+suivant|ressemble(?:rait)?\s+(?:\w+\s+){0,2}?à\s+(?:ceci|ça|cela)|(?:ça|cela)\s+donnerait(?:\s+(?:ceci|ça|cela))?|"
        r"à\s+titre\s+d['’]exemple|quelque\s+chose\s+comme|un\s+peu\s+comme|"
        # (with the writer's side named after it: "ça donnerait quelque chose comme ça de mon côté :")
        r"donnerait\s+(?:[\w'’]+\s+){0,3}?comme\s+(?:ça|ceci|cela)\s+de\s+mon\s+côté)"
        + _COLON
        + r"|(?:[,，][ \t]*|\bdu[ \t]+)genre(?:[ \t]+(?:ça|comme\s+ça))?"
        + _COLON
        + r"|\bvoici\s+à\s+quoi\s+ressemble",
        # ("so" after a comma goes on from the clause before: "I should keep it on file, so:"; alone
        # at the start of a line it is an everyday lead-in, English "So:" or German "So:" alike)
        "de": r"\b(?:wäre\s+(?:diese|dieser|dieses|folgende[rs]?)|zum\s+beispiel|z\.\s?b\.?|beispiele?|das\s+format\s+ist|(?<!\b(?-i:\p{Lu}{2,5})\s)format|(?<![,，][ \t]{0,3})(?<=\w[ \t]{1,3})so|folgendermaßen|"
        r"wie\s+folgt|(?<=\w[ \t]{1,3})so\s+(?:auf|an|ab|ein|vor)|"
        # ("aus" closing a verb of looking, "sieht dann ungefähr so aus:"; not "rechne ... aus:")
        r"sieht\s+(?:so|folgendermaßen)\s+aus|etwa\s+so|(?<=\b(?:sieht|sehen|sähe|sähen|sah)\b[^\n]{0,60})aus|beispielsweise|exemplarisch|zur\s+veranschaulichung|"
        r"veranschaulicht|ungefähr\s+so|etwa|aussehen|so\s+wie)" + _COLON + r"|\bso\s+sieht\b",
        "pt": r"\b(?:seria\s+(?:esta|este|isto|essa|esse|a\s+seguinte|o\s+seguinte)|por\s+exemplo|exemplos?|o\s+formato\s+é|formato|fica\s+assim(?:,?\s+(?:ó|olha|veja))?|ficaria\s+assim|assim|"
        r"desta\s+forma|seria\s+assim|veja\s+como\s+ficaria|mostrando\s+como\s+(?:seria|ficaria|fica|funciona)\b[^\n:：]{0,60}|"
        r"(?:tipo|como)\s+(?:esta|este|essa|esse)(?:\s+aqui)?|(?:algo|coisa)\s+tipo|(?:tem|fica\s+com)\s+(?:essa|esta)\s+cara(?:\s+aqui)?|a\s+título\s+de\s+exemplo|algo\s+(?:assim|como)|um\s+pouco\s+como|mais\s+ou\s+menos\s+assim)"
        + _COLON
        + r"|[,，][ \t]*tipo(?:[ \t]+(?:assim|isso|isto))?"
        + _COLON
        + r"|^\W{0,4}um\s+exemplo\b"
        + _ENDS,
        "it": r"\b(?:sarebbe\s+(?:questa|questo|la\s+seguente|il\s+seguente)|ad\s+esempio|per\s+esempio|esempi[o]?|il\s+formato\s+è(?:\s+questo)?|formato|così|"
        r"in\s+questo\s+modo|si\s+scrive\s+così|ecco\s+come\s+(?:si\s+presenterebbe|sarebbe|apparirebbe|verrebbe|"
        r"si\s+presenta|appare)|(?:si\s+presenterebbe|apparirebbe|sarebbe)\s+così|ecco\s+un\s+esempio|"
        r"per\s+farti\s+un\s+esempio|qualcosa\s+(?:del\s+genere|come)|una\s+cosa\s+(?:del\s+genere|così)|un\s+po['’]\s+come|"
        r"più\s+o\s+meno\s+così|(?:tipo|come)\s+(?:questa|questo|questi|queste|quella|quello)(?:\s+qui)?)"
        + _COLON
        + r"|[,，][ \t]*tipo(?:[ \t]+così)?"
        + _COLON,
        "ru": r"(?:например|пример\w*|(?<!\b(?:одном|едином|одинаковом|том\s+же)\s)формат\w*(?:\s+такой)?|выглядит\s+так|(?<!правильно\s)(?<!верно\s)так|вот\s+так|"
        r"выглядело\s+бы\s+(?:это\s+)?так|к\s+примеру|скажем|допустим|что-то\s+вроде|(?<=\w\s)вида)"
        + _COLON
        + r"|^\W{0,4}пример\w*\b"
        + _ENDS
        + r"|вот\s+так\s+выглядит|вот\s+как\s+(?:это|оно)\s+выглядит|"
        + _adverb(r"например|к\s+примеру"),
        "zh": r"(?:例如|比如|示例|例子|举例|格式如下|格式为|格式是|示例如下|这样|会是这样|大概是这样|看起来像这样|"
        r"看起来是这样|类似这样|如下所示|像这样|打个比方)" + _COLON,
        "ja": r"(?:例えば|たとえば|例|書き方は(?:こう|次のとおり|以下のとおり)です|こうなります|形式は次のとおりです|次のとおりです|次のように|このように書きます|このように|"
        r"こんな感じ|こんな感じです|こんな感じになります|こんな形です|このようになります|以下のようになります|次のようになります|イメージ|"
        r"こんなふうに|こんな風に|しようと思っています|しようと思います|"
        # (the manner before what it describes: "内部的にはこんな感じの呼び出しをしています：")
        r"こんな(?:感じ|ふう|風|形)の[^\n：:。]{0,20}|"
        r"例を挙げると|"
        # (how a call is written whenever the step is taken: "追記するときは、次のような形で呼び出します：")
        r"(?:とき|時|場合)は[^\n]{0,40}?ような(?:形|形式)で(?:呼び出し|書き|記述し)ます)" + _COLON,
        "other": r"(?:bijvoorbeeld|na\s+przykład|örneğin|예를\s+들어|예시)"
        + _COLON
        # the noun anywhere, but "par exemple" and its like only where _adverb places them: in the
        # middle of a sentence they give a list ("je note tes plats, par exemple la raclette:")
        + r"|(?<!\b(?:par|per|por|zum|for)\s)\b(?:examples?|ejemplos?|exemples?|beispiele?|exemplos?|esempi[o]?|"
        # not the format a saving follows as usual ("con el formato de siempre", "the same format"),
        # nor one spelled out in a quotation right after it ("un format du genre « JJ/MM »", "в
        # формате «дата — настроение»"): the quotation is the format, and the block is no example
        # (nor one named by its file type, "in PDF format", "у форматі PDF": a property of the thing;
        # nor the verb, "da próxima vez que você formatar o PC", "die Platte formatieren")
        r"пример\w*|(?<!\b(?:same|mismo|misma|même|gleichen|mesmo|mesma|stesso|stessa|aynı|samme|samma|zelfde|același)\s)(?<!\b(?-i:\p{Lu}{2,5})\s)format(?!(?:ar|ear|er|ieren|iert|tare|ting)\b)\w*"
        r"(?!\s+(?-i:\p{Lu}{2,5})\b)"
        r"(?!\s+(?:de\s+siempre|habitual|usual|yang\s+(?:sama|biasa)|de\s+toujours|habituel|di\s+sempre|"
        r"de\s+sempre|wie\s+immer|as\s+(?:usual|always|before))\b)(?!" + _QUALIFIED + _SPELLED + ")|"
        r"(?<!\b(?:одном|едином|одинаковом|том\s+же|тому\s+ж|одному)\s)формат\w*(?!\s+(?-i:\p{Lu}{2,5})\b)(?!"
        + _QUALIFIED
        + _SPELLED
        + r"))\b"
        + _ENDS
        + "|"
        + _adverb(r"(?:par|per|por)\s+(?:exemple|ejemplo|esempio|exemplo)|zum\s+beispiel|for\s+example")
        # (nor, in Chinese and Japanese, the format that a quotation spelled out just before it:
        # "「日付・金額・店」の形式を使っている", nor one the writer's own step follows: "我按这个格式记一下")
        + r"|(?<!你(?:说|要|定|给)的[^\n]{0,12})(?:示例|例子|(?<![」』”\"](?:の|的)?)(?:(?<!我(?:就|先|会|来)?(?:按|按照|照|用|以)(?:这个|这种|同样的|一样的|原来的|之前的|平时的)?)格式(?!(?:就|还是|仍然|依然|都)?(?:按|照|用|依))|形式"
        # (nor, in Japanese, the format the writer's own step keeps it in: "この形式で保存します：",
        # "形式はいただいたとおり「店名（エリア）」で保存しておくべきですね：")
        r"(?![^\n:：]{0,30}?(?:で|のまま|のとおり(?:に)?|どおり(?:に)?)(?:保存|記録|登録|メモ|追加|追記|更新)(?:しておきます|します|しました|しておきました|"
        r"しておくべき|しておく|しておこう|しとき|しています)))|例)"
        # (nor one the writer reports noted between it and the colon: "…的短视频格式，我记住了，…：")
        r"(?![^\n:：]{0,30}?我(?:已经|都|也)?(?:记住|记下|记好|存好|保存)了)"
        r"[^\n]{0,30}[:：][ \t]*$",
        # How any tool is called, told as an instruction (a prompt recited: "To call a tool, output
        # exactly:", "Para usar una herramienta escribe:"); the writer's own step names its tool
        "any-tool": r"^\W{0,4}(?:to\s+(?:call|use|invoke|run)\s+(?:a|any)\s+tool|para\s+(?:usar|llamar\s+a|invocar|"
        r"utilizar)\s+(?:una|cualquier)\s+herramienta|pour\s+(?:appeler|utiliser|invoquer)\s+(?:un|n['’]importe\s+quel)\s+outil|"
        r"um\s+ein(?:\s+beliebiges)?\s+(?:werkzeug|tool)\s+(?:aufzurufen|zu\s+(?:nutzen|verwenden|benutzen))|"
        r"para\s+(?:usar|chamar|invocar|utilizar)\s+(?:uma|qualquer)\s+ferramenta|per\s+(?:usare|chiamare|invocare|"
        r"utilizzare)\s+(?:uno|qualsiasi)\s+strumento|tool\s+calls\s+(?:go|are\s+written|stand)|werkzeugaufrufe\s+stehen|"
        r"чтобы\s+(?:вызвать|использовать)\s+(?:какой-либо\s+|любой\s+)?"
        r"инструмент|要(?:调用|使用)(?:某个|任何)?工具|ツールを(?:呼び出す|使う)(?:に|とき|場合))\b" + _ENDS,
        # "For example" and the noun: at the start of the sentence or just before its colon, never
        # inside a list the sentence gives ("saving the dishes you like, for example pierogi:");
        # "it looks like this" and "here is an example" anywhere in it.
        "nl": _adverb(r"bijvoorbeeld|bv\.|b\.v\.|(?:een\s+)?voorbeeld(?:en)?")
        + r"|\b(?:het\s+formaat\s+is|ziet\s+er\s+(?:\w+\s+){0,3}?(?:zo|als\s+volgt|ongeveer\s+zo)\s+uit|zo\s+ziet|"
        r"ziet\s+(?:[\w'’]+\s+){1,4}?er\s+(?:\w+\s+)?zo\s+uit|"
        r"hier\s+is\s+een\s+voorbeeld)\b" + _ENDS,
        "sv": _adverb(r"till\s+exempel|t\.\s?ex\.|exempelvis|(?:ett\s+)?exempel")
        + r"|\b(?:formatet\s+är|ser\s+(?:\w+\s+)?(?:ut\s+så\s+här|ut\s+ungefär\s+så\s+här|ut\s+som\s+följer)|"
        r"så\s+här\s+ser|så\s+här\s+(?:kan|skulle)\s+det\s+se\s+ut|här\s+är\s+ett\s+exempel)\b" + _ENDS,
        "da-nb": _adverb(r"for\s+eksempel|f\.\s?eks\.|eksempelvis|(?:et\s+)?eksempel")
        + r"|\b(?:formatet\s+er|ser\s+(?:\w+\s+){0,3}?(?:sådan\s+ud|således\s+ud|slik\s+ut|sånn\s+ut)|sådan\s+ser|"
        r"slik\s+ser|her\s+er\s+et\s+eksempel|(?:ville|vil|kunne)\s+(?:det|den)\s+(?:se\s+(?:\w+\s+)?ud|sett\s+ut|se\s+ut)|"
        # (the thing named between: "Sådan ville et kald se ud", "Slik ville et kall sett ut")
        r"(?:sådan|slik|sånn)\s+(?:ville|vil|kunne|skulle)\s+(?:\w+\s+){1,3}?(?:se\s+ud|sett\s+ut|se\s+ut))\b"
        + _ENDS
        # ("like this:" closing the lead, "Jeg kunne notert det slik:")
        + r"|(?<!\w)(?:slik|sånn|sådan|således)"
        + _COLON,
        "cs-pl": _adverb(r"například|např\.|příklad\w*|pro\s+představu|ukázk\w*|na\s+przykład|np\.|przykład\w*")
        + r"|\b(?:vypadá\s+(?:\w+\s+)?(?:takto|následovně)|formát\s+je|tady\s+je\s+příklad|"
        r"(?:takhle|takto|tak)\s+by\s+(?:to\s+)?(?:\w+\s+)?vypadal\w*|vypadal\w*\s+by\s+(?:to\s+)?(?:takto|takhle)|"
        r"(?:tak|w\s+ten\s+sposób)\s+(?:by\s+)?(?:to\s+)?wyglądał\w*|wyglądał\w*\s+by\s+(?:to\s+)?(?:tak|następująco)|"
        r"wygląda\s+(?:\w+\s+){0,2}?(?:tak|następująco)|format\s+jest|oto\s+przykład)\b"
        + _ENDS
        # ("like this:" closing the lead: "Mohl bych to uložit takhle:", "Zapisałbym to w ten sposób:";
        # not the correction's "Správně je to takto:")
        + r"|(?<!\w)(?<!(?:správně|poprawnie)[^\n]{0,12})(?:takhle|takto|následovně|w\s+ten\s+sposób|następująco)"
        + _COLON,
        "uk": _adverb(r"наприклад|приклад\w*|для\s+прикладу")
        + r"|(?:виглядає\s+(?:\w+\s+)?(?:так|ось\s+так)|формат\s+такий|ось\s+приклад)"
        + _ENDS,
        "fi-hu": _adverb(r"esimerkiksi|esim\.|esimerk\w*|például|pl\.|(?:egy\s+)?példa\w*|példá\w*")
        + r"|\b(?:näyttää\s+(?:\w+\s+)?(?:tältä|seuraavalta)|on\s+(?:\w+\s+)?(?:tällainen|seuraavanlainen)|muoto\s+on|tässä\s+esimerkki|így\s+néz\s+ki|"
        r"a\s+formátum|ilyen\s+formátum\w*|íme\s+egy\s+példa|így\s+\w+(?:ném|nám)|\w+(?:ném|nám)\s+így|"
        # (the writer's step in the conditional, then "like this": "Voisin tallentaa tämän näin:")
        r"\w+isi(?:n|mme|vat)?\s+(?:\S+\s+){0,6}?näin)" + _ENDS,
        "ro-ca": _adverb(r"de\s+exemplu|de\s+ex\.|(?:un\s+)?exemplu|per\s+exemple|p\.\s?ex\.|(?:un\s+)?exemple")
        + r"|\b(?:arată\s+(?:\w+\s+){0,3}?(?:așa|astfel)|(?:aș|ar)\s+(?:\S+\s+){0,6}?(?:așa|astfel)|formatul\s+este|iată\s+un\s+exemplu|el\s+format\s+és|"
        r"es\s+veuria\s+així|seria\s+així|aquí\s+tens\s+un\s+exemple|(?:tindria|té)\s+aquesta\s+pinta|"
        r"(?:perquè|per\s+tal\s+que)\s+(?:et\s+facis|us\s+feu)\s+una\s+idea)" + _ENDS,
        "tr": _adverb(r"örneğin|mesela|örnek\w*")
        + r"|\b(?:(?:yapısı|biçimi|formatı|şekli|görünümü)\s+(?:şöyle|şu\s+şekilde|böyle|bu\s+şekilde)|şöyle\s+görün\w*|şu\s+şekilde\s+görün\w*|(?:şöyle|şu\s+(?:biçimde|şekilde))\s+yazıl\w*|biçimi\s+şöyle|formatı\s+şöyle|işte\s+bir\s+örnek|(?:şuna|buna)\s+benz\w*|"
        # (the step in the potential, then or after "like this": "bunu şöyle kaydedebilirim:")
        r"şöyle\s+\w+(?:ebilir|abilir)im|\w+(?:ebilir|abilir)im\s+şöyle)" + _ENDS,
        "el": _adverb(r"για\s+παράδειγμα|π\.\s?χ\.|(?:ένα\s+)?παράδειγμα|παραδείγματα")
        + r"|γράφεται\s+[^\n]{0,60}?ως\s+εξής|γράφεται\s+(?:\S+\s+){0,2}?έτσι"
        + r"|(?:(?:θα\s+)?(?:μοιάζει|έμοιαζε|φαίνεται|φαινόταν),?\s+(?:[^\s,]+,?\s+){0,3}?(?:κάπως\s+)?έτσι|η\s+μορφή\s+είναι|ορίστε\s+ένα\s+παράδειγμα)"
        + _ENDS,
        "vi": _adverb(r"ví\s+dụ|chẳng\s+hạn|minh\s+họa|minh\s+hoạ")
        + r"|(?:trông\s+như|có\s+dạng|định\s+dạng\s+là|đây\s+là\s+(?:một\s+)?ví\s+dụ|kiểu\s+như|giống\s+như\s+(?:thế|vậy)\s+này)"
        + _ENDS,
        "id-ms": _adverb(r"misalnya|contohnya|sebagai\s+contoh|contoh|misal")
        + r"|\b(?:seperti\s+(?:ini|berikut)\s+bentuknya|tepat\s+seperti\s+ini|terlihat\s+seperti|kelihatan\s+seperti|formatnya|"
        r"bentuknya|bentuk\s+panggilannya|begini\s+bentuk\w*|berikut\s+contoh\w*|ini\s+contoh\w*)\b" + _ENDS,
        "ar-fa": _adverb(r"على\s+سبيل\s+المثال|مثلاً|مثلا|مثال|برای\s+مثال|به\s+عنوان\s+مثال|نمونه")
        + r"|(?:يبدو\s+(?:هكذا|كالتالي|كما\s+يلي)|هكذا\s+يبدو|الصيغة|إليك\s+مثال|این\s+شکلی|به\s+این\s+شکل|ساختار(?:ش)?\s+این\s+است|"
        r"این\s+یک\s+مثال)" + _ENDS,
        "he": _adverb(r"לדוגמה|לדוגמא|למשל|דוגמה|דוגמא")
        + r"|(?:(?:נראה|נראית|נראים)\s+(?:בערך\s+|ככה\s+)?כך|(?<!\w)כך\s+(?:נראה|נראית|נראים)|הפורמט|הנה\s+דוגמ)"
        + _ENDS,
        "hi-bn": _adverb(r"उदाहरण(?:\s+के\s+लिए)?|मिसाल\s+के\s+तौर\s+पर|উদাহরণ(?:স্বরূপ)?")
        + r"|(?:इस\s+तरह\s+(?:होता|होती)\s+है|कुछ\s+(?:ऐसे|इस\s+तरह)|ऐसा\s+दिखता|ऐसी\s+दिखती|ऐसे\s+दिखते|इस\s+तरह\s+दिखता|प्रारूप|यह\s+एक\s+उदाहरण|এরকম\s+দেখায়|(?:এরকম|এমন|এভাবে)\s+হবে|"
        r"এমন\s+দেখায়|এখানে\s+একটি\s+উদাহরণ|ঠিক\s+এরকম|(?<!\w)এরকম)"
        + _ENDS
        # ("যেমন", like, only where it alone closes the line: at a line's start it opens "as you
        # said, ...", a clause of the writer's own)
        + r"|(?<!\w)যেমন"
        + _COLON,
        "th": _adverb(r"ตัวอย่างเช่น|ตัวอย่าง|เช่น")
        + r"|(?:หน้าตาแบบนี้|หน้าตาประมาณนี้|มีลักษณะดังนี้|รูปแบบคือ|นี่คือตัวอย่าง|^\W{0,3}ให้ใช้รูปแบบ|ตามรูปแบบนี้)"
        + _ENDS,
        "ko": _adverb(r"예를\s+들어|예를\s+들면|예시")
        + r"|(?:예:|이런\s+식|이렇게요|이런\s+호출|이런\s+형태|다음과\s+같은\s+형식|다음\s+형식|형식은|모양입니다|모습입니다|예시는)"
        + _ENDS,
        "sw": _adverb(r"kwa\s+mfano|mfano")
        + r"|\b(?:\w{0,4}onekana\s+(?:kama\s+)?hivi|kunaonekana\s+hivi|muundo\s+ni|huu\s+ni\s+mfano|"
        # (the same: "Ningeweza kuhifadhi hivi:")
        r"ninge\w+\s+(?:\S+\s+){0,6}?(?:hivi|namna\s+hii|kwa\s+njia\s+hii))\b" + _ENDS,
        # Introductions that run on after the marker word before their colon ("比如说，掷骰子是这样的：",
        # "たとえば、…はこう書きます："), in the languages that write them so.
        "zh-ja": r"(?:是这样的|是这样写的|这样写|这么写|写法如下|如下所示|こう書きます|こう書く|こう書ける|こうなります|"
        r"こんなふうに(?:書きます|なります)|このように(?:書きます|なります))"
        + _COLON
        + r"|^\W{0,4}(?:比如说?|例如|譬如|举个例子|たとえば|例えば)[^\n]*[:：][ \t]*$",
    },
    "quoted": {
        # what was done, told with the time word after the verb ("Esto es lo que hice ayer:",
        # "这是我之前执行的操作："), and "you sent me" with the thing sent between
        "told-after": r"\b(?:what|how|here['’]s\s+(?:what|how)|this\s+is\s+(?:what|how))\s+(?:I|we)\s+(?:ran|called|did|"
        r"executed|sent|saved|handled|stored|recorded|logged|answered)(?:\s+(?:it|this|that))?\s+(?:earlier|yesterday|"
        r"before|last\s+(?:time|week|month|night)|this\s+morning|the\s+other\s+day)\b|\blo\s+que\s+(?:hice|ejecuté|llamé|guardé|lancé)\s+(?:ayer|"
        r"antes|anoche|esta\s+mañana|la\s+última\s+vez|el\s+otro\s+día)\b|\bce\s+que\s+j['’]ai\s+(?:fait|lancé|"
        r"exécuté|envoyé)\s+(?:hier|plus\s+tôt|tout\s+à\s+l['’]heure|ce\s+matin|la\s+dernière\s+fois)\b|"
        r"\bo\s+que\s+(?:eu\s+)?(?:fiz|executei|rodei|enviei)\s+(?:ontem|antes|mais\s+cedo|hoje\s+de\s+manhã|"
        r"da\s+última\s+vez)\b|\bche\s+ho\s+(?:fatto|eseguito|lanciato|inviato)\s+(?:ieri|prima|stamattina|"
        r"l['’]ultima\s+volta)\b|что\s+я\s+(?:делал|сделал|запускал|запустил|выполнил|выполнял)\s+(?:вчера|раньше|ранее|до\s+этого|"
        r"утром|в\s+прошлый\s+раз)|(?:这是|以下是|下面是|这就是)我(?:之前|昨天|上次|刚才|早些时候|先前)(?:执行|运行|调用|做)|"
        r"\b(?:ini|inilah|berikut)\s+yang\s+(?:ku|aku\s+|saya\s+)(?:lakukan|jalankan|panggil)\s+(?:tadi|kemarin|sebelumnya)\b|"
        r"\bce\s+am\s+(?:rulat|apelat|executat|făcut)\s+(?:ieri|anterior|mai\s+devreme|data\s+trecută|azi-dimineață)\b|"
        r"\b(?:du\s+(?:hast|hattest)|sie\s+(?:haben|hatten))\s+mir\s+(?:\w+\s+){0,3}?(?:geschickt|gesendet|eingefügt|"
        r"weitergeleitet|kopiert)" + _COLON,
        "en": r"\b(?:earlier|previously|before|last\s+time|yesterday)\b[^\n]{0,80}\b(?:I|we)\s+(?:ran|called|did|"
        r"executed|sent|wrote|made)\b|\b(?:I|we)\s+(?:ran|called|executed)"
        + _COLON
        + r"|(?:\bwhat\s+I\s+did\b|\byou\s+(?:sent|pasted|wrote|shared|gave)\b|\bwhat\s+you\s+(?:sent|pasted|wrote)\b|"
        r"(?<!\bin\s)\byour\s+(?:last\s+|previous\s+)?message\b|\bthe\s+other\s+agent\b|"
        r"\byou\s+(?:just\s+)?(?:forwarded|copied|quoted)\b)" + _ENDS + r"|"
        r"\b(?:my|the)\s+(?:instructions|system\s+prompt)\b|\beverything\s+I\s+can\s+call\b|"
        r"\b(?:available|following)\s+(?:\w+\s+)?tools\b|\bmy\s+(?:native\s+)?format\b|\bverbatim\b|"
        r"\b(?:quoting|recit\w+)\b|"
        r"^" + _SPEAKER + "$",
        # the writer's own instructions, recited ("আমার নির্দেশনায় লেখা আছে এভাবে টুল কল করতে:")
        "prompt": r"\b(?:mis\s+instrucciones|mes\s+instructions|meine\s+anweisungen|le\s+mie\s+istruzioni|"
        r"las\s+instrucciones\s+que\s+(?:tengo|me\s+(?:dieron|han\s+dado))|the\s+instructions\s+I\s+(?:have|was\s+given)|"
        r"minhas\s+instruções)\b|(?:мои\s+инструкции|моих\s+инструкциях)(?!\w)|আমার\s+নির্দেশনা|मेरे\s+निर्देश",
        "es": r"\b(?:mis\s+herramientas|la\s+forma\s+de\s+cada|me\s+(?:enviaste|mandaste|pasaste|pegaste|compartiste|"
        r"reenviaste|escribiste)|lo\s+que\s+(?:me\s+)?(?:pegaste|copiaste|enviaste|mandaste|compartiste)|"
        r"(?:tu|el)\s+mensaje\s+anterior|me\s+(?:has|habías)\s+(?:enviado|mandado|reenviado|pegado|pasado|compartido|escrito)|(?:antes|ayer|"
        r"la\s+última\s+vez)\b[^\n]{0,60}\b"
        r"(?:ejecuté|llamé|hice)|(?<!\ben\s)tu\s+(?:último\s+)?mensaje)\b",
        "fr": r"\b(?:mes\s+outils|tu\s+m['’]as\s+(?:envoyé|collé|transmis|partagé|écrit)|vous\s+m['’]avez\s+(?:envoyé|"
        r"collé|transmis|partagé)|(?:ce\s+)?que\s+tu\s+as\s+collé|ton\s+message\s+précédent|plus\s+tôt[^\n]{0,40}"
        r"j['’]ai\s+(?:lancé|exécuté|appelé)|(?<!\bdans\s)(?:ton|votre)\s+(?:dernier\s+|précédent\s+)?message[ \t]*(?:précédent[ \t]*)?[:：][ \t*_]*$)",
        # what was sent only where the verb closes the line ("Das hier hattest du mir geschickt:"),
        # not in a sentence that goes on to use it ("Du hast mir deine Nummer geschickt, ich trage sie ein:")
        "de": r"\b(?:meine\s+(?:werkzeuge|tools)|(?:vorhin|vorher|früher|gestern)\b[^\n]{0,60}\bhabe\s+ich)\b|"
        # (the call itself named as what was sent, whatever the line goes on to say)
        r"\bdu\s+hast\s+mir\s+(?:folgende[nms]?|diese[nms]?|den|das)\s+(?:block|aufruf|code|befehl)\s+(?:geschickt|gesendet)\b|"
        # (the verb closing the line after a few words: "Du hast mir diesen Schnipsel aus deinem Projekt geschickt:")
        r"\bdu\s+hast\s+mir\s+(?:[^\W\d_]+\s+){1,6}?(?:geschickt|gesendet|eingefügt|weitergeleitet|kopiert)"
        + _COLON
        + "|"
        r"\b(?:(?:hast|hattest|haben|hatten)\s+(?:du|sie)\s+(?:mir\s+)?(?:[^\W\d_]+\s+){0,3}?|was\s+(?:du|sie)\s+(?:mir\s+)?"
        r"(?:[^\W\d_]+\s+){0,3}?)(?:geschickt|gesendet|eingefügt|weitergeleitet|geschrieben|kopiert)(?:\s+(?:hast|hattest|haben))?"
        + _COLON
        + r"|\b(?:deine\s+vorherige|deine[rn]?\s+(?:letzten\s+)?)nachricht\w*"
        + _COLON,
        "pt": r"\b(?:minhas\s+ferramentas|(?:você\s+)?me\s+(?:enviou|mandou|passou|encaminhou)|"
        r"(?:você|vc|tu)\s+(?:mandou|enviou|passou|mandaste|enviaste)\s+(?:isso|isto|este|esse|essa|esta)(?:\s+aqui)?\s*[:：]|você\s+(?:colou|"
        r"compartilhou|encaminhou)|o\s+que\s+(?:você\s+)?(?:me\s+)?(?:colou|enviou|mandou)|"
        r"sua\s+mensagem\s+anterior|(?:antes|ontem)\b[^\n]{0,60}\b(?:executei|chamei)|"
        r"sua\s+(?:última\s+)?mensagem)\b",
        "it": r"\b(?:i\s+miei\s+strumenti|mi\s+hai\s+(?:mandato|inviato|incollato|passato|girato|scritto)|"
        r"(?:il\s+tuo|nel\s+tuo)\s+messaggio\s+precedente|(?:prima|ieri)\b[^\n]{0,60}\bho\s+(?:eseguito|"
        r"chiamato|lanciato)|tuo\s+(?:ultimo\s+)?messaggio)\b",
        "ru": r"(?:мои\s+инструменты|вы\s+(?:прислали|отправили|вставили|скопировали|переслали|скинули)|ты\s+(?:прислал|"
        r"отправил|вставил|скопировал|переслал|скинул)\w*|(?:ранее|раньше|вчера)[^\n]{0,60}я\s+"
        r"(?:запустил|вызвал|выполнил)|ваше\w*\s+сообщени)",
        # ("你刚才发给我的是这个：", the verb closing the line: "你刚才发给我的地址我存一下：" saves it)
        "zh-sent": r"你(?:刚才|刚刚|之前|昨天|上次)发给我的(?:是|就是)?(?:这个|这段|这些|如下)?" + _COLON,
        "zh": r"(?:我的工具|你发给我|你发送|你发来|你贴|你(?:刚才|之前)?(?:粘贴|复制|转发)|"
        # ("你刚才发来的是这段：": what was sent, named as what the block is; not "你刚才发给我的地址我存一下：")
        r"你(?:刚才|刚刚|之前|上次)(?:发来|发给我|发送)的(?:就)?是|之前我(?:运行|调用|执行)|你的(?:上一条)?消息)",
        # (the reader's sending, in any of the auxiliaries of a favour received: くれた, くださった,
        # いただいた, もらった; a line that closes on the writer's own step with it saves what was
        # sent: "送ってくれた住所で更新しました：")
        # (the passive with the auxiliary of coming, plain or polite: "送られてきました")
        "ja": r"(?:使えるツール|ツール一覧|(?:(?:送って|貼り付けて|貼って|共有して|転送して)(?:くれ|くださっ|いただい|もらっ)た|"
        r"送られて(?:き|来)(?:た|ました))"
        r"(?![^\n]{0,60}?(?:保存|更新|登録|記録|変更|追加|メモ|反映)(?:して|し)(?:おき)?(?:ました|ます)[ \t。]*[:：]?[ \t]*$)|"
        r"先ほど(?:実行|呼び出)|あなたのメッセージ|"
        # (the favour received with no verb of sending: "いただいたブロックはこちらです：")
        r"(?:いただいた|頂いた|もらった)(?:ブロック|コード|呼び出し|JSON|スニペット))",
        "nl": r"\b(?:je\s+(?:stuurde|hebt\s+(?:me\s+)?gestuurd|plakte)|u\s+(?:stuurde|heeft\s+(?:me\s+)?gestuurd)|"
        r"(?:eerder|gisteren|vorige\s+keer)\b[^\n]{0,60}\b(?:heb\s+ik|voerde\s+ik|riep\s+ik)|"
        r"wat\s+ik\s+(?:eerder\s+)?deed|"
        r"je\s+(?:laatste\s+)?bericht)\b",
        "sv": r"\b(?:du\s+(?:skickade|har\s+skickat|klistrade\s+in)|(?:tidigare|förut|igår|i\s+går)\b[^\n]{0,60}\b"
        r"(?:körde|anropade|gjorde)\s+jag|jag\s+(?:körde|anropade)\s+(?:tidigare|förut)|här\s+är\s+vad\s+jag\s+gjorde|"
        r"ditt\s+(?:senaste\s+)?meddelande)\b",
        "da-nb": r"\b(?:du\s+(?:sendte|har\s+sendt)|(?:tidligere|i\s+går)\b[^\n]{0,60}\b(?:kørte|kaldte|kjørte|"
        r"kalte)\s+jeg|"
        r"her\s+er\s+(?:hvad|hva)\s+jeg\s+gjorde|din\s+(?:sidste\s+)?besked|meldingen\s+din)\b",
        "cs-pl": r"\b(?:poslal[ai]?\s+(?:jste|jsi)|(?:dříve|předtím|včera)\b[^\n]{0,60}\b(?:spustil|zavolal|provedl)|"
        r"(?:spustil|provedl)\s+jsem\s+(?:dříve|předtím)|vaše\s+(?:poslední\s+)?zpráv\w*|"
        # (Polish: the clause that says what was sent runs to the colon: "Wkleiłeś mi wczoraj takie
        # wywołanie:", not "Wysłałeś mi nowy adres, zapisuję go:")
        r"(?:wysłał|przysłał|wkleił|podesłał|przekazał)[ae]ś[^\n,;]{0,60}[:：][ \t*_]*$|"
        r"(?:wcześniej|poprzednio|wczoraj)\b[^\n]{0,60}(?:wykonał|uruchomił|wywołał)\w*|"
        r"twoja\s+(?:ostatnia\s+)?wiadomość)",
        "uk": r"(?:ви\s+(?:надіслали|прислали|надсилали)|ти\s+(?:надіслав|надіслала|прислав|прислала)|"
        r"(?:раніше|вчора|минулого\s+разу)[^\n]{0,60}я\s+(?:запустив|викликав|виконав)|ваше\w*\s+повідомлен|"
        r"ось\s+що\s+я\s+(?:зробив|робив))",
        "fi-hu": r"\b(?:lähetit|lähetitte|mitä\s+(?:tein|ajoin|suoritin)\s+(?:aiemmin|äsken|eilen)|"
        r"(?:aiemmin|eilen|äsken)\b[^\n]{0,60}\b(?:ajoin|suoritin|kutsuin)|viestisi|"
        r"(?:el)?küldted|küldtél|korábban\b[^\n]{0,60}\b(?:futtattam|hívtam|lefuttattam)|az\s+üzeneted)\b",
        "ro-ca": r"(?:\bmi-a[iț]\s+trimis|\b(?:anterior|mai\s+devreme|ieri)\b[^\n]{0,60}\bam\s+(?:rulat|apelat|"
        r"executat)|"
        r"\bem\s+vas\s+enviar|\bm['’]has\s+enviat|\babans\b[^\n]{0,60}\bvaig\s+(?:executar|cridar))",
        # what was sent only where the verb (or the noun it qualifies) closes the line ("Bana
        # gönderdiğin çağrı:"), not "Bana gönderdiğin adresi kaydediyorum:"
        "tr": r"(?:(?:bana\s+)?(?:gönderdi|yolladı)\w*(?:\s+(?:şu|bu|blok|çağrı|kod|mesaj|şey)\w*){0,2}[ \t]*:|"
        r"bana\s+[^\n]{0,30}(?:göndermişsin|göndermiştin|yolladın|yollamışsın)[ \t]*:|(?:daha\s+önce|dün|önceden)[^\n]{0,60}(?:çalıştırdım|çağırdım)|"
        r"son\s+mesajın\w*[ \t]*:)",
        "el": r"(?:μου\s+(?:έστειλες|στείλατε|έστειλε)|(?:νωρίτερα|προηγουμένως|χθες)[^\n]{0,60}(?:έτρεξα|"
        r"εκτέλεσα|κάλεσα)|"
        r"το\s+μήνυμά\s+σου)",
        "vi": r"(?:bạn\s+(?:đã\s+|vừa\s+|mới\s+)?gửi\s+(?:cho\s+)?(?:mình|tôi|em)|"
        # (the block between the verb and "cho mình", closing the line: "Bạn đã gửi khối này cho tôi:")
        r"bạn\s+(?:đã\s+|vừa\s+|mới\s+)?(?:gửi|dán|chia\s+sẻ|chuyển)\s+(?:[^\W\d_]+\s+){0,4}?cho\s+(?:mình|tôi|em)"
        + _COLON
        + r"|(?:trước\s+đó|lúc\s+nãy|hôm\s+qua)[^\n]{0,60}"
        r"(?:đã\s+chạy|đã\s+gọi)|đây\s+là\s+(?:những\s+gì|điều)\s+(?:mình|tôi)\s+đã\s+làm)",
        # (as the lead's last clause: "Anda mengirim nomor baru, jadi saya perbarui:" is the reason for the step)
        "id-ms": r"\b(?:(?:kamu|anda|kau)\s+(?:tadi\s+|barusan\s+|sudah\s+)?(?:kirim|mengirim|kirimkan)(?=\b[^\n,，;]*$)|yang\s+(?:kamu|anda)\s+kirim(?=\b[^\n,，;]*$)|"
        r"sebelumnya\s+(?:aku|saya)\b[^\n]{0,40}\b(?:menjalankan|memanggil)|ini\s+yang\s+(?:aku|saya)\s+lakukan)\b",
        "ar-fa": r"(?:أرسلت\s+لي|أرسلتها\s+لي|ما\s+أرسلته|سابقا[^\n]{0,60}(?:نفذت|شغلت)|هذا\s+ما\s+فعلته|"
        r"برایم\s+فرستادی|برای\s+من\s+فرستادی|قبلاً[^\n]{0,60}اجرا\s+کردم)",
        "he": r"(?:שלחת\s+לי|ששלחת(?!י)|קודם[^\n]{0,60}(?:הרצתי|הפעלתי|ביצעתי|עשיתי)|הנה\s+מה\s+שעשיתי)",
        "hi-bn": r"(?:(?:आपने|तुमने)\s+(?:मुझे\s+)?[^\n]{0,30}भेजा|पहले\s+मैंने|मैंने\s+पहले|আপনি\s+পাঠিয়েছেন|"
        r"তুমি\s+পাঠিয়েছ|(?:তুমি|আপনি)\s+আমাকে\s+[^\n]{0,30}পাঠিয়ে(?:ছিলে|ছে|ছ)(?:ন)?[ \t]*:|"
        r"আগে\s+আমি)",
        # Thai ends a clause with a space: "earlier I ..." that another Thai clause follows on the
        # line told what went wrong before, and that clause is what the writer does now
        # ("ก่อนหน้านี้ผมจดวันเกิดผิด แก้ให้แล้วครับ:")
        # (Thai: the reader as subject, a verb of sending or pasting, the block as its object, then
        # "มา(ให้)" toward the writer, the writer's pronoun and a polite particle left out or not,
        # closing the line: "คุณส่งบล็อกนี้มาให้ค่ะ:")
        "th-ko": r"(?:คุณส่งมา|คุณส่ง[^\n]{1,20}มาให้(?:ฉัน|ผม)(?:ดู)?(?:ครับ|ค่ะ|นะ)?[ \t]*:|"
        r"คุณ(?:ได้|เพิ่ง)?(?:ส่ง|แปะ|วาง|แชร์|คัดลอก)[^\n \t]{0,30}?มา(?:ให้)?(?:ฉัน|ผม|ดิฉัน|หนู|เรา)?(?:นะ)?"
        r"(?:ครับ|ค่ะ|คะ|จ้ะ|จ้า)?[ \t*_]*[:：][ \t*_]*$|ที่คุณส่ง|ก่อนหน้านี้(?:ผม|ฉัน)(?![^\n]{0,200}[ก-๛][ \t]+[ก-๛])|보내\s?주신|보내신|이전에[^\n]{0,60}(?:실행|호출)했|"
        r"제가\s+(?:앞서|이전에|아까)\s+(?:실행|호출)|(?:앞서|이전에|아까|전에)\s+제가\s+(?:실행|호출|했))",
        # "you sent/gave me" as Swahili builds it, subject + tense + "ni" (me) + verb, read only where
        # a demonstrative and the colon follow ("Umenitumia kipande hiki:", "Ulinipa amri hii:") or
        # the relative form follows "this is what" ("Hiki ndicho ulichonitumia:"); a bare relative
        # ("tarehe uliyonipa:", the date you gave me) names what is being saved, and stays performed,
        # as does the verb in a clause before the writer's own ("Ulinitumia namba yako, naihifadhi:")
        "sw": r"\b(?:awali\s+nili(?:endesha|ita)|hiki\s+ndicho\s+nilichofanya)\b|"
        rf"\b[um](?:me|li)ni{_SW_SEND}\s+(?:\w+\s+){{0,2}}?(?:hiki|hii|hili|huu|hizi|haya|hicho|hiyo|hilo|huo)"
        # (and when it was sent: "Ulinitumia kipande hiki jana:")
        + r"(?:\s+(?:jana|juzi|leo|awali|mapema|asubuhi|jioni|usiku))?"
        + _COLON
        + rf"|\bndi{_SW_RELATIVE}\s+[um]li{_SW_RELATIVE}ni{_SW_SEND}"
        + _COLON,
        # What was done earlier, told with the time word after "what I" ("Hier ist, was ich vorhin
        # gemacht habe:"), and "you sent me" in Malay and Indonesian word orders, as the lead's
        # only clause: one that goes on after a comma to the writer's own step ("Kamu mengirimkan
        # alamat baru, saya simpan ya:") tells why the block is made
        "de-ms": r"\bwas\s+ich\s+(?:vorhin|vorher|eben|gestern|früher|zuvor|letztes\s+mal)\s+(?:\w+\s+){0,3}"
        r"(?:habe|hatte)\b|\b(?:anda|kamu|awak|engkau|kau)\s+(?:hantar|hantarkan|menghantar|kirim|kirimkan|mengirim|"
        r"tampal|menampal|tempel|menempel|kongsi)\w*\b[^\n,，;]*[:：][ \t*_]*$",
    },
    "proposed": {
        # the reader's verdict asked for before the block ("tell me if it reads well:", "dime si te
        # vale:", "sag mir, ob es passt:")
        "verdict": r"\b(?:tell|let)\s+me\s+(?:know\s+)?(?:if|whether)\b|\bdime\s+si\b|\bdis[- ]moi\s+si\b|"
        r"\bdites[- ]moi\s+si\b|\bsag\s+mir,?\s+ob\b|\bme\s+diz\s+se\b|\bdiga[- ]me\s+se\b|\bdimmi\s+se\b|"
        r"\bскажи(?:те)?,?\s+(?:если|подходит\s+ли)\b|\blaat\s+(?:me\s+)?weten\s+of\b|\bzeg\s+(?:me\s+)?of\b" + _ENDS,
        # held back in other words ("ready when you are (I haven't sent it):"), and a step that
        # waits on an empty result in Korean and Japanese ("결과가 없으면 ... 실행할게요:", "何も見つからなければ")
        # (the step put off to the reader's yes: "once you confirm", "sobald du bestätigst")
        "held-before": r"\b(?:once|after|when|as\s+soon\s+as)\s+you\s+(?:confirm|approve|agree|say\s+(?:yes|so|the\s+word)|"
        r"give\s+(?:me\s+)?the\s+(?:ok|go-ahead|green\s+light))\b|\b(?:en\s+cuanto|cuando|apenas)\s+(?:me\s+)?(?:lo\s+)?"
        r"(?:confirmes|apruebes|digas\s+que\s+sí)\b|\b(?:dès\s+que|quand|une\s+fois\s+que)\s+(?:tu|vous)\s+(?:confirmes|"
        r"confirmez|valides|validez)\b|\b(?:sobald|wenn)\s+(?:du|sie)\s+(?:es\s+)?(?:bestätigst|bestätigen|zustimmst|"
        r"zustimmen)\b|\b(?:assim\s+que|quando)\s+(?:você\s+)?(?:confirmar|aprovar)\b|\b(?:appena|quando|non\s+appena)\s+"
        r"(?:mi\s+)?(?:confermi|approvi)\b|"
        r"\bI\s+(?:haven['’]t|have\s+not)\s+(?:sent|saved|run|applied|stored)\s+(?:it|this|that|them)\b|"
        # not sent yet, or sent only once the reader agrees ("I won't post it unless you tell me
        # to:", "todavía sin enviar:", "Rien n'est parti, j'attends ton feu vert :")
        r"\bI\s+(?:haven['’]t|have\s+not)\s+(?:sent|posted)\s+anything\b|"
        r"\bI\s+won['’]t\s+(?:post|send|share|publish)\s+(?:it|this|that|them|anything)\s+(?:unless|until)\b|"
        r"\b(?:todavía|aún)\s+sin\s+(?:enviar|mandar|guardar|publicar)\b|"
        r"\bespero\s+tu\s+(?:visto\s+bueno|ok|confirmación|aprobación)\b|"
        r"\brien\s+n['’]est\s+(?:parti|envoyé|enregistré)\b|\bj['’]attends\s+(?:ton|votre)\s+(?:feu\s+vert|accord|ok|aval|"
        r"confirmation|validation)\b|"
        # the writer waits for the reader's word, or makes the step only after it ("espero a que me
        # confirmes", "la applico solo dopo la tua conferma", "erst nach deiner Freigabe")
        r"\bespero\s+a\s+que\s+(?:me\s+)?(?:confirmes|digas|des|apruebes|revises|veas)\b|"
        r"\b(?:solo|sólo)\s+(?:(?:lo|la|los|las)\s+)?(?:\w+\s+){0,2}?(?:después\s+de|tras)\s+(?:que\s+(?:me\s+)?(?:confirmes|lo\s+apruebes|me\s+digas)|"
        r"tu\s+(?:confirmación|visto\s+bueno|ok|aprobación))\b|"
        r"\bj['’]attends\s+que\s+(?:tu|vous)\s+(?:confirm|valid|approuv|me\s+dis|me\s+disiez)\w*|"
        r"\b(?:seulement|uniquement)\s+après\s+(?:ta|votre|ton)\s+(?:confirmation|validation|accord|feu\s+vert)\b|"
        r"\b(?:solo|soltanto)\s+dopo\s+(?:la\s+tua|il\s+tuo|la\s+sua|il\s+suo|la\s+vostra|il\s+vostro)\s+"
        r"(?:conferma|ok|via\s+libera|approvazione)\b|\baspetto\s+(?:la\s+tua|la\s+sua)\s+(?:conferma|approvazione)\b|"
        r"\b(?:só|somente|apenas)\s+(?:(?:o|a)\s+)?(?:\w+\s+){0,2}?depois\s+(?:da\s+(?:sua|tua)\s+(?:confirmação|aprovação)|do\s+(?:seu|teu)\s+"
        r"(?:ok|sinal\s+verde)|que\s+(?:você|tu)\s+(?:confirmar|aprovar))\b|"
        r"\b(?:aguardo|espero)\s+(?:a\s+)?(?:sua|tua)\s+(?:confirmação|aprovação)\b|"
        r"\berst\s+nach\s+(?:deiner|ihrer|eurer)\s+(?:bestätigung|freigabe|zustimmung)\b|"
        r"\bonly\s+(?:after|once)\s+you\s+(?:confirm|approve|say\s+(?:yes|so|ok))\b|"
        r"\bonly\s+after\s+your\s+(?:ok|okay|confirmation|approval|go-ahead)\b|"
        r"\b(?:I['’]m|I\s+am|I['’]ll|I\s+will)\s+wait(?:ing)?\s+(?:for|on)\s+your\s+(?:ok|okay|confirmation|approval|"
        r"go-ahead)\b|только\s+после\s+(?:твоего|вашего)\s+(?:подтверждения|одобрения)|"
        r"\bnoch\s+nicht\s+(?:verschickt|abgeschickt|versendet)\b|\berst\s+ab,?\s+wenn\s+du\b|\bwenn\s+du\s+zustimmst\b|"
        r"\bsó\s+(?:mando|envio|salvo|publico)\s+quando\s+(?:você|vc)\b|\bainda\s+não\s+(?:enviei|mandei)\b|"
        r"\bnon\s+l['’]ho\s+ancora\s+(?:inviat|mandat|salvat)\w*|\baspetto\s+il\s+tuo\s+(?:ok|via\s+libera)\b|"
        r"жду\s+(?:твоего|вашего)\s+(?:ок|одобрения|подтверждения)|\bnog\s+niet\s+(?:verstuurd|verzonden)\b|"
        r"아직\s*(?:안\s*보냈|보내지\s*않았|저장하지\s*않았|안\s*올렸)|"
        r"\b(?:I['’]m|I\s+am)\s+(?:holding|keeping)\s+(?:it|this|that|them)\s+(?:back\s+)?until\b|"
        r"\bI['’]ll\s+hold\s+off\s+on\s+(?:sending|saving|applying|running)\b|\b(?:todavía|aún)\s+no\s+(?:lo\s+|la\s+)?(?:he\s+)?(?:enviado|"
        r"guardado|mandado)\b|пока\s+не\s+(?:отправляю|сохраняю)|まだ(?:送っ|保存し|登録し)て(?:いません|ない)|"
        r"还没(?:发|存)(?![出到给])|"
        r"\bready\s+when\s+you\s+are\b|ड्राफ़्ट|"
        # (the next step in the conditional: "o passo seguinte seria", "the next step would be:")
        r"\b(?:(?:próximo\s+passo|passo\s+seguinte)\s+seria|(?:siguiente\s+paso|paso\s+siguiente|próximo\s+paso)\s+sería|"
        r"(?:prossimo\s+passo|passo\s+successivo)\s+sarebbe|"
        r"prochaine\s+étape\s+serait|next\s+step\s+would\s+be)\b|"
        # (the reader asked to check it first: "Quero que você confira as datas primeiro:")
        r"\b(?:quero\s+que\s+(?:você|vc)|quiero\s+que|voglio\s+che|je\s+veux\s+que\s+tu|I\s+want\s+you\s+to|"
        r"ich\s+möchte,?\s+dass\s+du)\s+(?:[\w-]+\s+){0,2}?(?:double-|re-)?(?:confira|confirme|verifique|revise|cheque|revises|confirmes|"
        r"compruebes|controlli|verifichi|vérifies|check|confirm|review|prüfst|bestätigst)\b[^\n:]{0,60}?"
        r"\b(?:primeiro|primero|prima|d['’]abord|first|zuerst)\b|अभी\s+(?:भेजा|सेव\s+किया|सहेजा)\s+नहीं|"
        r"(?:결과가|아무것도|아무\s+것도|기록이)\s*(?:없으면|없다면|안\s*나오면|나오지\s*않으면|비어\s*있으면)|"
        # (what the result holds named between: "검색 결과에 기존 일정이 없으면")
        r"(?:결과에|결과에서|기존)\s*[^\n,，]{0,20}?(?:없으면|없다면|안\s*나오면|나오지\s*않으면)|"
        # (or with a word that points back at the earlier search: "거기서 안 나오면 ...")
        r"(?:거기서|거기에서|그쪽에서|그곳에서)\s*(?:없으면|없다면|안\s*나오면|나오지\s*않으면|못\s*찾으면)|"
        r"찾지\s*못하면|(?:何も|結果が)(?:見つから|出てこ|ヒットし|出)なければ|結果が(?:空|ゼロ)(?:なら|だったら)|"
        r"結果(?:に|が|で)[^\n]{0,30}?(?:あれば|あったら|見つかれば|見つかったら|出てきたら|出たら)|"
        # (the next step on what a search finds, its result unnamed: "日付が見つかったら、その結果しだいで")
        r"(?:見つか|出てき|ヒットし)(?:ったら|れば)|(?:結果|それ)(?:しだい|次第)で",
        "en": r"\b(?:I|we)['’]d\b(?!\s+(?:(?:already|just|never|both|all|ever)\s+)?(?:\w+ed|been|done|gone|seen|"
        r"made|said|told|had|got|gotten|written|spoken|met|known|given|taken|sent|found|left|heard|brought|bought|"
        r"thought|kept)\b|\s+(?:be\s+(?:happy|glad|delighted|pleased)|love)\s+to\b)|\b(?:I|we)\s+would\b(?!\s+(?:be\s+(?:happy|glad|delighted|pleased)|love)\s+to\b)|\bif\s+you\s+(?:agree|want|like|confirm|approve|say\s+so)\b|"
        r"\buntil\s+you\s+(?:confirm|say|approve|give)\b|\bpending\s+(?:your\s+)?(?:approval|confirmation)\b|"
        # (not the reader's drafts: "I'll keep this in mind for every draft you send me:")
        r"(?<!\b(?:every|each|any)\s)\bdraft(?:ed)?\b(?!s?\s+you\s+(?:send|write|share|paste|give))|"
        r"\bnot\s+(?:sent|saved|applied|run|executed)(?:\s+yet)?\b|\bwon['’]t\s+(?:apply|send|save|"
        r"run)\b|\bshall\s+I\b|\bwant\s+me\s+to\b|\bnext\s+step\s+would\b|(?<!\b(?:before|after|until|when|once|if|unless|then|and|or|so)\s)\bI\s+(?:propose|suggest)\b|"
        r"^\W{0,4}(?:if|once|depending\s+on|in\s+case|should\s+(?:it|that|the))\b"
        + _ENDS
        # (not places taken in turn, the first named next: "Let me look in two places — first our chats, ...")
        + r"|\b(?:two|three|several|a\s+few|\d)\s+(?:ways|options|alternatives|choices|places)\b(?![ \t]*[—–:,-]+[ \t]*first\b)"
        + _ENDS
        + r"|\bone\s+of\s+(?:two|three|these|the\s+following)\b"
        + _ENDS
        + r"|^\W{0,4}(?:or|or\s+else|or\s+instead|alternatively|otherwise|either)\b"
        + _ENDS,
        "es": r"\b(?:hasta\s+que\s+(?:me\s+)?confirmes|si\s+(?:me\s+)?confirmas|si\s+estás\s+de\s+acuerdo|borrador|te\s+propongo|"
        r"lo\s+dejo\s+preparado|no\s+(?:enviado|guardado)|si\s+(?:eso|esto|la\s+búsqueda)\s+no)\b|"
        # the writer's making of it in the conditional, as "I'd" ("También lo dejaría anotado:")
        r"\b(?:lo|la|los|las)\s+(?:guard|anot|dej|apunt|añad|cambi|actualiz|envi|mand|registr|agreg|archiv|"
        r"sustitu|reemplaz)(?:aría|iría)\b|\b(?:lo|la|los|las)\s+(?:pondría|haría|escribiría)\b|"
        # (and without its object: "en ese caso haría después:"; "haría falta" needs, it offers nothing)
        r"\b(?:haría|ejecutaría|buscaría|lanzaría|usaría|llamaría|guardaría|anotaría|añadiría|enviaría|mandaría|"
        r"registraría|actualizaría)\b(?!\s+falta\b)|"
        r"^\W{0,4}(?:si|cuando|una\s+vez|según|o\s+bien|o\s+si\s+no|alternativamente|si\s+no|ya\s+sea)\b"
        + _ENDS
        + r"|\b(?:dos|tres|varias)\s+(?:formas|opciones)\b"
        + _ENDS,
        "fr": r"\b(?:jusqu['’]à\s+ce\s+que\s+tu\s+confirmes|si\s+tu\s+(?:es\s+d['’]accord|confirmes)|brouillon|"
        r"voici\s+(?:une|ma|mon)\s+(?:proposition|suggestion|ébauche)|"
        r"pas\s+encore\s+(?:envoyé|enregistré)|je\s+(?:vous\s+|te\s+)?propose)\b|^\W{0,4}(?:si|s['’]il|s['’]ils|une\s+fois|selon|ou|ou\s+bien|ou\s+alors|sinon|soit(?!\s*,))\b"
        + _ENDS
        + r"|\b(?:deux|trois|plusieurs)\s+(?:façons|options|manières)\b"
        + _ENDS,
        # (the writer in the conditional, as "I'd" and "I would" above: "Das würde ich ihm schicken:",
        # and the block named as what would be, "Das wäre:"; and proposed, as "te propongo" is)
        "de": r"\b(?:bis\s+du\s+(?:es\s+)?bestätigst|wenn\s+du\s+einverstanden|entwurf|noch\s+nicht\s+(?:gespeichert|"
        r"gesendet)|ich\s+würde|würde\s+ich)\b|\bich\s+schlage\b[^\n.!?]{0,40}\bvor\b|\b(?:das|dies)\s+wäre[ \t*_]*[:：][ \t*_]*$|^\W{0,4}(?:wenn|falls|sobald|je\s+nach|oder|alternativ|andernfalls|entweder)\b"
        + _ENDS
        + r"|\b(?:zwei|drei|mehrere)\s+(?:wege|möglichkeiten|optionen)\b"
        + _ENDS,
        "pt": r"\b(?:até\s+(?:você\s+)?confirmar|se\s+você\s+concordar|rascunho|ainda\s+não\s+(?:enviado|salvo|"
        # (the writer's "not yet", unless a clause after it takes the step now: "Ainda não salvei seu
        # endereço, salvando agora:")
        r"(?:salvei|enviei|guardei|registrei|mandei)(?![^\n:]*,\s*(?:\w+ndo|vou\s+\w+|\w+o)\s+(?:\w+\s+)?agora\b))|(?:te\s+|lhe\s+|eu\s+)?proponho)\b|"
        r"^\W{0,4}(?:se(?!\s+(?:bort|her|nedenfor|ovenfor)\b)|quando|assim\s+que|dependendo|ou|ou\s+então|alternativamente|senão)\b"
        + _ENDS
        + r"|\b(?:duas|três|várias)\s+(?:formas|opções|maneiras)\b"
        + _ENDS,
        "it": r"\b(?:finché\s+non\s+confermi|se\s+sei\s+d['’]accordo|bozza|non\s+ancora\s+(?:inviato|salvato)|(?<!\bnon\s)(?:ti|vi|le)\s+propongo)\b|"
        r"\b(?:lo|la|li|le)\s+[^\W\d_]{2,}(?:erei|irei)\b|"
        r"^\W{0,4}(?:se(?!\s+(?:bort|her|nedenfor|ovenfor)\b)|quando|una\s+volta|a\s+seconda|oppure|in\s+alternativa|altrimenti)\b"
        + _ENDS
        + r"|\b(?:due|tre|diversi)\s+(?:modi|opzioni)\b"
        + _ENDS,
        "ru": r"(?:пока\s+вы\s+не\s+подтвердите|пока\s+ты\s+не\s+подтвердишь|черновик|(?:ещё|пока)\s+не\s+(?:отправ|сохран))|"
        r"\bпредлагаю\s+(?:такую|такой|такое|эту|этот|это|следующ\w*)(?!\w)|"
        r"^\W{0,4}(?:если|когда|в\s+зависимости|или|либо|как\s+вариант|иначе)"
        + _ENDS
        + r"|(?:два|три|несколько)\s+(?:способа|варианта)"
        + _ENDS,
        "zh": r"(?:草稿|拟了|拟好|草拟|你(?:先)?看(?:看|一下)再|发不发|存不存|要不要发|确认后|等你确认|尚未(?:发送|保存)|还没(?:发送|保存)|如果|两种|几种|^\W{0,4}(?:或者|或是|另一种))"
        + _ENDS,
        # (and the writer's step after the reader's, "-te kara" or "-tara": "OKをいただいてから保存します：")
        "ja": r"(?:下書き|確認(?:して(?!(?:いただい|もらっ|くれ)た)|が取れ(?!た(?!ら)))|まだ(?:送信|保存)|"
        r"(?:いただ|もら)(?:いて|って)から(?![^\n]*まし)|(?:いただ|もら)(?:いた|った)ら(?![^\n]*まし)|もし|二つの方法|2つの方法|^\W{0,4}(?:または|あるいは|もしくは|そのとき(?:に)?は|その場合(?:に)?は|その際は))"
        + _ENDS,
        "nl": r"\b(?:ik\s+zou|zou\s+ik|(?:wat|hoe)\s+ik\s+(?:[\w-]+\s+){0,5}?zou|conceptversie|concept|nog\s+niet\s+(?:verstuurd|opgeslagen|verzonden|uitgevoerd)|"
        r"tot(?:dat)?\s+je\s+(?:het\s+)?bevestigt|als\s+je\s+akkoord\s+(?:gaat|bent))\b|"
        r"^\W{0,4}(?:als\s+(?:dat|dit|het|er|niets|de\s+zoekopdracht|je\s+(?:wilt|akkoord))|indien|zodra|"
        r"mocht|afhankelijk\s+van|zo\s+niet|zoniet|anders)\b"
        + _ENDS
        + r"|\b(?:twee|drie|een\s+paar)\s+(?:manieren|opties|mogelijkheden)\b"
        + _ENDS,
        "sv": r"\b(?:jag\s+skulle|utkast|inte\s+(?:skickat|sparat|genomfört)\s+(?:\w+\s+)?än|tills\s+du\s+"
        r"(?:har\s+)?(?:bekräftat|bekräftar|godkänt|godkänner)|om\s+du\s+godkänner)\b|"
        r"^\W{0,4}(?:om\s+(?:det|du|ni|den|inget|ingenting|sökningen|inte)|ifall|beroende\s+på|annars)\b"
        + _ENDS
        + r"|\b(?:två|tre|flera)\s+(?:sätt|alternativ|möjligheter)\b"
        + _ENDS,
        "da-nb": r"\b(?:jeg\s+ville|udkast|utkast|ikke\s+(?:sendt|gemt|lagret)\s+(?:\w+\s+)?(?:endnu|ennå)|"
        r"(?:indtil|til)\s+du\s+(?:bekræfter|bekrefter|godkender|godkjenner))\b|"
        r"^\W{0,4}(?:hvis|afhængigt\s+af|avhengig\s+av|ellers)\b"
        + _ENDS
        + r"|\b(?:to|tre|flere)\s+(?:måder|måter|muligheder|muligheter)\b"
        + _ENDS,
        # ("návrh" also a proposal the writer sends now: "A teď ti rovnou pošlu návrh tréninku:")
        "cs-pl": r"\b(?:navrhuji|(?<!(?:pošlu|posílám|odešlu|odesílám)\s+(?:ti\s+|vám\s+)?(?:\w+\s+)?)návrh\w*|koncept|zatím\s+(?:\w+\s+)?(?:neodesílám|neposílám|neukládám)|neodeslal|neuložil|dokud\s+(?:to\s+)?"
        r"nepotvrdí\w*|pokud\s+souhlasíte|szkic|wersja\s+robocza|"
        r"jeszcze\s+(?:\w+\s+)?nie\s+(?:zapisuję|wysyłam|wykonuję|uruchamiam)|jeszcze\s+(?:\w+\s+)?nie\s+(?:wysłał|zapisał|"
        r"wykonał|uruchomił)\w*|ještě\s+(?:\w+\s+)?(?:jsem\s+)?(?:neodeslal|neuložil|nespustil)\w*|"
        r"dopóki\s+nie\s+potwierdzi\w*|(?:zapisał|zrobił|wysłał)bym|bych(?:\s+\w+){0,2}\s+(?:udělal|uložil|přidal|"
        r"změnil|zapsal|spustil|odeslal|nahradil)\w*|podle\s+výsledku)\b|"
        r"^\W{0,4}(?:pokud|jestli|jestliže|kdyby|v\s+případě|jeśli|jeżeli|gdyby|w\s+razie|w\s+przeciwnym\s+razie|inaczej|jinak)\b"
        + _ENDS
        + r"|\b(?:dva|dvě|tři|několik|dwa|dwie|trzy|kilka)\s+(?:způsoby|možnosti|varianty|sposoby|opcje|warianty)\b"
        + _ENDS,
        "uk": r"(?:чернетк\w*|ще\s+не\s+(?:надіслав|зберіг|відправив|застосував)|поки\s+(?:ви\s+не\s+підтвердите|"
        r"ти\s+не\s+підтвердиш)|після\s+вашого\s+підтвердження|я\s+б\s+)|"
        r"^\W{0,4}(?:якщо|коли|у\s+разі|залежно)" + _ENDS + r"|(?:два|три|кілька)\s+(?:способи|варіанти)" + _ENDS,
        "fi-hu": r"\b(?:luonnos|ehdotan|ehdottaisin|javaslom|javasolnám|en\s+(?:tallenna|lähetä|aja|suorita)\s+(?:sitä\s+|tätä\s+)?vielä|odotan\s+vahvistustasi|en\s+ole\s+(?:vielä\s+)?(?:lähettänyt|tallentanut)(?:\s+sitä)?(?:\s+vielä)?\b|kunnes\s+vahvistat|jos\s+hyväksyt|"
        r"piszkozat|vázlat|még\s+nem\s+(?:küldtem|mentettem)|amíg\s+(?:nem\s+)?(?:jóváhagyod|erősíted)|"
        r"ha\s+egyetértesz)\b|^\W{0,4}(?:jos|mikäli|riippuen|ha|amennyiben|muuten|muussa\s+tapauksessa|különben|egyébként)\b"
        + _ENDS
        + r"|\b(?:kaksi|kolme|useita|két|három|több)\s+(?:tapaa|vaihtoehtoa|módon|lehetőség)\w*"
        + _ENDS,
        "ro-ca": r"\b(?:ciorn[ăa]|schiț[ăa]|deocamdată\s+nu\s+(?:o\s+|îl\s+|le\s+)?(?:salvez|trimit|aplic)|nu\s+(?:l-|o\s+|le-)?am\s+(?:trimis|salvat)\s+încă|încă\s+nu\s+(?:l-|o\s+|le-|i-)?am\s+(?:trimis|salvat)|până\s+(?:nu\s+)?confirmi|aștept\s+confirmarea\s+ta|"
        r"aștept\s+să-mi\s+(?:spui|confirmi)|"
        r"dacă\s+ești\s+de\s+acord|"
        r"esborrany|encara\s+no\s+(?:l['’]he\s+)?(?:enviat|desat)|fins\s+que\s+(?:no\s+)?confirmis)\b|"
        r"^\W{0,4}(?:dacă|în\s+cazul|si|quan|un\s+cop)\b" + _ENDS,
        "tr": r"(?:taslak|henüz\s+(?:göndermedim|kaydetmedim|uygulamadım)|onaylayana\s+kadar|onaylarsan|onaylarsanız|"
        r"kabul\s+edersen)|^\W{0,4}(?:eğer|değilse|aksi\s+(?:halde|takdirde))\b"
        + _ENDS
        + r"|\b\w+(?:[aeıiuü]r|m[ae]z)s[ae]m?\b,?\s+(?:[^\n,.]{0,60}?\s)?(?:sonra|o\s+zaman|ardından)\b"
        + _ENDS
        + r"|\b(?:iki|üç|birkaç)\s+(?:yol|seçenek)"
        + _ENDS,
        "el": r"(?:προσχέδιο|δεν\s+(?:το\s+)?(?:έχω\s+)?(?:στείλει|στείλω|αποθηκεύσει|αποθηκεύω|στέλνω)\s+ακόμ|"
        r"περιμένω\s+να\s+(?:το\s+)?επιβεβαιώσεις|μέχρι\s+να\s+"
        r"επιβεβαιώσ\w*|αν\s+συμφωνείς|αν\s+συμφωνείτε)|^\W{0,4}(?:αν|εάν|σε\s+περίπτωση)\b"
        + _ENDS
        + r"|(?:δύο|τρεις|μερικοί)\s+(?:τρόποι|επιλογές)"
        + _ENDS,
        "vi": r"(?:bản\s+nháp|chưa\s+(?:gửi|lưu|cập\s+nhật|thực\s+hiện|áp\s+dụng)|(?:cho\s+)?đến\s+khi\s+bạn\s+xác\s+nhận|"
        r"nếu\s+bạn\s+đồng\s+ý)|^\W{0,4}(?:nếu|trong\s+trường\s+hợp|tùy|tuỳ)\b"
        + _ENDS
        + r"|(?:hai|ba|vài)\s+(?:cách|lựa\s+chọn)"
        + _ENDS,
        "id-ms": r"\b(?:draf|belum\s+(?:aku\s+|saya\s+)?(?:dikirim|disimpan|kirim|simpan|kukirim|kusimpan|dihantar|hantar|kuhantar|"
        r"jalankan|dijalankan)|yang\s+(?:saya|aku)\s+cadangkan|"
        r"sampai\s+(?:kamu|anda|kau|awak)\s+(?:konfirmasi|setuju|mengonfirmasi)|tak\s+(?:hantar|kirim|simpan)\s+lagi|(?:kalau|jika)\s+(?:kamu|anda)\s+setuju)\b|"
        r"^\W{0,4}(?:kalau(?!\s+begitu)|jika(?!\s+demikian)|apabila|bila|seandainya)\b"
        + _ENDS
        + r"|\b(?:dua|tiga|beberapa)\s+(?:cara|pilihan|opsi)\b"
        + _ENDS,
        "ar-fa": r"(?:مسودة|لم\s+أرسل|لم\s+أحفظ|حتى\s+تؤكد|بعد\s+تأكيدك|إذا\s+وافقت|پیش[\u200c ]?نویس|"
        r"هنوز\s+(?:ارسال|ذخیره)\s+نکرده|تا\s+(?:وقتی|زمانی)\s+که\s+تأیید|اگر\s+موافق)|"
        # "and if" is one word in Arabic ("وإن لم أجده"); "إن شاء الله" is no condition
        r"^\W{0,4}(?:و|ف)?(?:إذا|إن(?!\s+شاء)|لو|في\s+حال)" + _ENDS + r"|^\W{0,4}(?:اگر|در\s+صورتی)" + _ENDS,
        "he": r"(?:טיוטה|עוד\s+לא\s+(?:שלחתי|שמרתי)|עד\s+שתאשר|אם\s+תאשר|השלב\s+הבא\s+יהיה|"
        r"(?:לא|אינני|איני)\s+(?:מריץ|מריצה|אריץ|שולח|שולחת|אשלח|שומר|שומרת|אשמור)\s+(?:\S+\s+){0,2}?(?:לפני|עד)\s+ש)|^\W{0,4}(?:אם|במקרה\s+ש)"
        + _ENDS,
        "hi-bn": r"(?:मसौदा|ड्राफ्ट|पुष्टि\s+तक|पुष्टि\s+के\s+बाद|नहीं\s+भेज(?:ूँगा|ूंगा|ा)|अगर\s+आप\s+सहमत|খসড়া|"
        r"এখনও\s+পাঠাইনি|নিশ্চিত\s+না\s+করা\s+পর্যন্ত)|^\W{0,4}(?:अगर|यदि|যদি)" + _ENDS,
        "th-ko": r"(?:ฉบับร่าง|ยังไม่ได้(?:ส่ง|บันทึก)|จนกว่าคุณจะยืนยัน|รอ(?:คุณ|ให้คุณ)?(?:การ)?ยืนยัน|초안|아직\s+(?:보내지|저장하지|전송하지|적용하지)|"
        r"확인해\s?주시면|승인해\s?주시면|동의하시면)|^\W{0,4}(?:ถ้า|หาก|만약)" + _ENDS,
        "sw": r"\b(?:rasimu|hatua\s+inayofuata\s+(?:itakuwa|ni)|sita\w{0,3}(?:tuma|hifadhi|endesha)\s+(?:\w+\s+)?(?:kabla|mpaka|hadi)|bado\s+sija\w{0,3}(?:tuma|hifadhi)|sija\w{0,3}(?:tuma|hifadhi)\w*\s+bado|nasubiri\s+(?:u|m)thibitish\w*|mpaka\s+uthibitishe|ukikubali)\b|^\W{0,4}(?:kama|ikiwa|matokeo\s+yaki\w+|(?:ni|u|a|tu|m|wa|i|zi|li|ya|ki|vi)sipo(?!kose)\w+)\b"
        + _ENDS,
        # A step that depends on an earlier result, opened by "and if", "in case", a verb-first
        # condition (Dutch "levert dat niets op, dan") or a conditional ending (Japanese 場合は).
        "conditions": r"^\W{0,4}(?:and|but|y|pero|e|mas|et|mais|und|aber|ma|en|maar)\s+(?:if|si|se|wenn|falls|als)\b"
        + _ENDS
        + r"|^\W{0,4}(?:caso|no\s+caso\s+de|en\s+caso\s+de\s+que|au\s+cas\s+où|s['’]il\s+n['’]y\s+a|nel\s+caso|"
        r"qualora|sollte\s+(?:das|die|es|der)|im\s+fall)\b"
        + _ENDS
        + r"|^\W{0,4}(?:levert|geeft|vindt|brengt)\s+(?:dat|dit|het|die|de\s+zoekopdracht)\s+(?:niets|niks|geen)\b"
        + _ENDS
        + r"|(?:見つからなかった|出てこなかった|なかった|空だった|失敗した)場合|(?:見つから|ヒットし|出てこ)(?:なければ|なかったら)"
        + _ENDS,
        "or-next": _OR_OPEN + _ENDS,
        "alternatives": r"\b(?:deux|trois|plusieurs)\s+(?:possibilités|solutions|choix|variantes)\b"
        + _ENDS
        + r"|\b(?:dos|tres|varias|duas|três|várias|due|tre|diverse)\s+(?:posibilidades|alternativas|possibilidades|"
        r"alternative|possibilità|soluzioni)\b"
        + _ENDS
        + r"|\b(?:zwei|drei|mehrere)\s+(?:varianten|alternativen)\b"
        + _ENDS,
    },
}

# -- words: the lines directly after ------------------------------------------------------------


def _bare(words: str, *, mark: bool = True) -> str:
    """Each alternative of ``words`` as a whole line: the words alone, then a question mark
    (Greek's semicolon among them; optional where the language asks with a particle,
    ``mark=False``)."""
    end = r"[ \t]*[?？؟;;][ \t]*$" if mark else r"[ \t]*[?？]?[ \t]*$"
    return "|".join(rf"^\W{{0,3}}(?:{alt}){end}" for alt in alternatives(words))


# A line that is nothing but a short question asking leave to make the block ("Mehet?",
# "Je le fais ?", "진행할까요?"), in each language: the verb alone or with a pronoun for the
# block, never a new object ("Tallennanko jotain muuta?" asks about something else).
BARE_QUESTIONS = (
    _bare(
        r"(?:so\s+)?(?:shall|should|can|may)\s+I(?:\s+(?:go\s+ahead|proceed|continue|do\s+(?:it|this|that)|"
        r"(?:save|send|apply|run|submit|store|make)\s+(?:it|this|that|them)))?(?:\s+now)?|"
        r"(?:want|would\s+you\s+like)\s+me\s+to(?:\s+(?:go\s+ahead|proceed|do\s+(?:it|this|that)|(?:save|send|apply|run)\s+"
        r"(?:it|this|that)))?|go\s+ahead|proceed|good\s+to\s+go|(?:ok|okay|alright|all\s+right|fine|good|safe)\s+to\s+[a-z]+(?:\s+(?:it|this|that|them))?|"
        r"do\s+I\s+(?:go\s+ahead|proceed)|(?:(?:does|do)\s+(?:that|this|it|these)\s+)?(?:look|sound)s?\s+(?:right|good|ok|"
        r"okay|fine|correct)(?:\s+to\s+you)?|(?:is\s+(?:that|this|it)\s+)?(?:ok|okay|fine|alright|good)\s+(?:with|by|for)\s+you|"
        # the reader's verdict on the block ("Happy with that wording?")
        r"(?:are\s+you\s+)?happy\s+with\s+(?:that|this|it)(?:\s+(?:wording|version|text|note|message|draft|one))?|"
        # Consent alone, asked right after the block ("Okay?", "Posso?", "Boleh?", "行吗？"): the
        # block waits on it. A question about something else ("Anything else?") is no consent word.
        r"(?:ok|okay|okey|oke|okej|ок|окей|yes|alright|all\s+right|agreed|¿?\s*(?:vale|sí|de\s+acuerdo)|"
        r"d['’]accord|c['’]est\s+bon|einverstanden|in\s+ordnung|passt\s+das|posso|pode\s+ser|tudo\s+bem|"
        r"está\s+bem|va\s+bene|d['’]accordo|так|да|можно|годится|tamam\s+mı|olur\s+mu|dobrze|może\s+być|"
        r"v\s+pořádku|(?:je\s+)?to\s+(?:tak\s+)?v\s+pořádku|(?:e\s+)?în\s+regulă|(?:e\s+)?bine\s+așa|"
        r"boleh|boleh\s+ya|setuju|(?:được|ổn)\s+không(?:\s+(?:bạn|ạ))?|(?:bạn\s+)?(?:có\s+)?đồng\s+ý\s+không|行吗|可以吗|好吗|好不好|行不行|"
        # (the step named: "可以帮你存吗？", "Quer que eu execute?")
        r"(?:我)?可以(?:帮你)?(?:存|保存|记|记下来|记住|执行|运行)(?:一下)?吗|"
        r"(?:você\s+)?quer\s+que\s+eu\s+(?:o\s+|a\s+)?(?:execute|rode|salve|envie|guarde|registre)(?:\s+(?:isso|agora))?|"
        r"(?:これで)?(?:いい|よろしい)(?:ですか|でしょうか)|괜찮을까요|될까요|"
        # ("괜찮으세요?" asks after the reader, as "大丈夫？" does; "괜찮아요?" and "어때요?" ask about a thing)
        r"(?:(?:이대로|이렇게|이거|이걸로|이\s*내용으로)\s*)?(?:괜찮아요|괜찮나요|괜찮습니까|괜찮으신가요|어때요|어떤가요)|"
        r"(?:이대로|이렇게|이거|이걸로|이\s*내용으로)\s*(?:좋아요|좋을까요|될까요|되나요)|"
        r"موافق|تمام|ठीक\s+है|चलेगा|ঠিক\s+আছে|oké|rendben|ok\s+così|ja|blz|beleza|fechou|combinado|"
        r"¿?\s*te\s+parece(?:\s+bien)?|fica\s+(?:ok|bom|bem)(?:\s+(?:pra|para)\s+(?:você|vc|ti))?|"
        r"(?:tá|está)\s+ok(?:\s+(?:pra|para)\s+(?:você|vc|ti))?|låter\s+(?:det\s+)?bra|ser\s+det\s+bra\s+ut|går\s+det\s+(?:bra|för\s+sig)|"
        r"lyder\s+det\s+godt|ser\s+det\s+godt\s+ud|høres\s+det\s+bra\s+ut|"
        # ("大丈夫？" alone asks after the reader: only "これで大丈夫？" asks about the block)
        r"(?:これで)?いい(?:ですか|でしょうか|かな)?|これで大丈夫(?:ですか|でしょうか|かな)?|"
        # yes or no asked for
        r"(?:yes|yay|sí|si|oui|ja|sim|sì|да|так|tak|ano|evet\s+mi|ya)\s+(?:or|o|ou|oder|of|eller|или|чи|czy|nebo|"
        r"atau|veya)\s+(?:no|nay|non|nein|não|nee|nej|нет|ні|nie|ne|hayır\s+mı|tidak|bukan))|"
        # es, ca
        r"¿?\s*(?:lo|la|los|las)\s+(?:guardo|envío|aplico|hago|ejecuto|mando|cambio|actualizo|anoto|apunto|registro)"
        r"(?:\s+(?:ya|así))?|"
        r"¿?\s*(?:procedo|continúo|sigo\s+adelante)|¿?\s*quieres\s+que\s+(?:lo|la|los|las)\s+(?:guarde|envíe|aplique|"
        r"haga|ejecute|mande|cambie|actualice)|(?:ho|la|el|els|les)\s+(?:deso|envio|aplico|faig|executo)|"
        r"(?:continuo|procedeixo)|"
        # fr
        r"je\s+(?:le|la|les|l['’])\s*(?:fais|lance|applique|enregistre|envoie|valide|garde|note|ajoute)|"
        r"je\s+(?:continue|procède|valide|lance|m['’]en\s+occupe)|on\s+(?:y\s+va|valide|lance)|"
        r"je\s+peux(?:\s+(?:y\s+aller|continuer|procéder|valider|lancer))?|puis-je|(?:tu|vous)\s+(?:valides|validez)|"
        # consent asked for the writer's own step on the block, the other answer perhaps offered
        # ("D'accord pour que je garde ça ?", "Va bene se lo salvo, o preferisci di no?")
        r"(?:d['’]accord|ok|okay|ça\s+(?:te|vous)\s+va)\s+(?:pour\s+que\s+je|si\s+je)\s+(?:le\s+|la\s+|les\s+|l['’]\s*)?"
        r"\w+(?:\s+(?:ça|cela|ceci))?(?:\s+(?:à|dans)\s+(?:ta|ton|tes|votre|vos)\s+\w+)?(?:,?\s+ou\s+(?:pas|non))?|"
        r"(?:va\s+bene|ti\s+va|vi\s+va|ok)\s+se\s+(?:lo|la|li|le|l['’])\s*\w+(?:,?\s+o\s+(?:preferisci\s+di\s+)?no)?|"
        # de
        r"(?:soll|darf|kann)\s+ich(?:['’]s|\s+(?:das|es))?(?:\s+(?:so|jetzt|gleich))?(?:\s+(?:machen|speichern|senden|"
        r"abschicken|ausführen|übernehmen|eintragen|anwenden|loslegen|weitermachen))?|"
        # pt
        r"(?:você\s+)?quer\s+que\s+eu\s+(?:(?:o|a|os|as)\s+)?(?:aplique|salve|envie|execute|registre|guarde|mande|"
        r"faça|prossiga|atualize|altere|grave)|(?:posso|devo)\s+(?:prosseguir|continuar|fazer|aplicar|salvar|enviar|"
        r"executar|registrar|guardar)(?:\s+(?:isso|isto))?(?:\s+agora)?|(?:prossigo|aplico|salvo|envio|executo|faço)|"
        r"(?:o|a)\s+(?:aplico|salvo|envio|executo|registro|guardo)|"
        # it
        r"(?:lo|la|li|le)\s+(?:faccio|salvo|invio|applico|mando|registro|eseguo)|(?:posso|devo)\s+(?:procedere|"
        r"andare\s+avanti|continuare|farlo|salvarl\w|inviarl\w|applicarl\w)|vado(?:\s+avanti)?|"
        r"vuoi\s+che\s+(?:proceda|vada\s+avanti)|"
        # ru, uk
        r"(?:мне\s+)?(?:сохранить|отправить|применить|выполнить|записать|продолжить|запустить|внести|сделать)"
        r"(?:\s+(?:это|его|её|их))?(?:\s+сейчас)?|(?:можно\s+)?(?:приступать|продолжать|выполнять)|"
        r"(?:зберегти|надіслати|застосувати|виконати|записати|продовжити|продовжувати|зробити)(?:\s+(?:це|його|її))?|"
        # pl, cs
        r"(?:czy\s+)?chcesz,?\s+(?:żebym|bym|abym)\s+(?:to|go|ją)\s+(?:zapisał|zapisała|wysłał|wysłała|dodał|dodała)|"
        r"chceš,?\s+(?:abych|ať)\s+(?:to|ho|ji)\s+(?:uložil|uložila|poslal|poslala|přidal|přidala|uložím)|"
        r"(?:czy\s+)?(?:(?:mam|mogę|moge)\s+)?(?:to\s+|je\s+|go\s+|ją\s+)?(?:zapisać|wysłać|zastosować|wykonać|zrobić|"
        r"kontynuować|dodać|dopisać|zmienić)(?:\s+(?:to|teraz))?(?:\s+do\s+\w+)?|(?:(?:mám|můžu|mohu)\s+)?(?:to\s+)?(?:uložit|odeslat|poslat|"
        r"provést|pokračovat|použít|změnit|udělat)(?:\s+to)?|"
        # nl, sv, da, nb
        r"(?:zal|moet|mag|kan)\s+ik(?:\s+(?:het|dit|dat|hem|ze|deze))?(?:\s+(?:zo|nu))?(?:\s+(?:doen|opslaan|versturen|toepassen|"
        r"uitvoeren|doorvoeren|bewaren|verwerken))?|(?:ska|får|kan)\s+jag(?:\s+(?:göra|spara|skicka|köra|"
        r"genomföra|fortsätta))?(?:\s+(?:det|den|detta))?(?:\s+nu)?|"
        # ("Ok å lagre?", "Okej att spara?": consent, then the verb of the step)
        r"(?:ok|okay|okej|greit|fint)\s+(?:å|att|at)\s+[^\W\d_]+(?:\s+(?:det|den|dette|detta))?|"
        # "do you want me to save it", the block the object
        r"(?:wil\s+je|wilt\s+u)\s+dat\s+ik\s+(?:het|dit|hem|ze)\s+(?:opsla|verstuur|toepas|doorvoer|bewaar|uitvoer)|"
        r"vill\s+du\s+att\s+jag\s+(?:sparar|skickar|kör|gör|lägger\s+till|genomför)\s+(?:det|den|detta)|"
        r"vil\s+du\s+(?:have\s+)?at\s+(?:jeg|eg)\s+(?:gemmer|lagrer|sender|kører|kjører|tilføjer|legger\s+til)"
        r"\s+(?:det|den)|(?:skal|må|kan)\s+(?:jeg|eg)(?:\s+(?:gøre|"
        r"gjøre|gemme|lagre|sende|køre|kjøre|fortsætte|fortsette|udføre|utføre))?(?:\s+(?:det|den))?(?:\s+(?:nu|nå))?|"
        # fi, hu, ro, el, tr
        r"(?:tallennanko|lähetänkö|jatkanko|suoritanko|teenkö|toteutanko|päivitänkö|ajanko|lisäänkö|tallennetaanko|"
        r"lähetetäänkö|jatketaanko|tehdäänkö|päivitetäänkö|lisätäänkö)(?:\s+(?:sen|ne|tämän|nyt))?|"
        r"(?:mehet|mehetünk|folytassam|csináljam|elmentsem|mentsem|küldjem|alkalmazzam|futtassam)(?:\s+(?:így|most))?|"
        r"(?:să\s+)?(?:o\s+|îl\s+|le\s+)?(?:salvez|trimit|aplic|continui|execut|rulez|adaug|actualizez|modific|schimb)(?:\s+(?:așa|acum))?|"
        r"(?:να\s+)?(?:το\s+)?(?:αποθηκεύσω|στείλω|εφαρμόσω|προχωρήσω|συνεχίσω|εκτελέσω)(?:\s+(?:τώρα|έτσι))?|"
        # (any verb the writer would do, the block its object: "Να το κάνω;", "Να τα περάσω;")
        r"να\s+(?:το|τα)\s+\p{Greek}+[ωώ](?:\s+(?:τώρα|έτσι))?|"
        r"(?:bunu\s+)?(?:kaydedeyim|göndereyim|uygulayayım|devam\s+edeyim|yapayım|çalıştırayım)(?:\s+mi)?|"
        # ar, fa, he
        r"(?:هل\s+)?(?:أتابع|أستمر|أكمل|أمضي|أنفذ|أنفذه|أنفذها|أحفظ|أحفظه|أحفظها|أرسل|أرسله|أرسلها|أطبق|أطبقه|أطبقها|نتابع)"
        r"(?:\s+(?:الآن|ذلك))?|(?:انجامش|ادامه)\s+(?:بدهم|بدم)|(?:ذخیره[\u200c ]?اش|اجرایش|اجراش|ارسالش|اعمالش|اجرا|ذخیره|ارسال|اعمال)\s+کنم|"
        r"(?:לאשר|להמשיך|לבצע|להחיל|שאמשיך|שאבצע|לשמור|לשלוח|להוסיף|לעדכן|שאשמור|שאוסיף)(?:\s+את\s+זה)?(?:\s+עכשיו)?|"
        # hi, bn
        r"(?:क्या\s+)?(?:मैं\s+)?(?:इसे\s+)?(?:आगे\s+बढ़ूँ|आगे\s+बढ़ूं|सेव\s+कर\s+दूँ|सेव\s+कर\s+दूं|सेव\s+करूँ|"
        r"सहेज\s+दूँ|भेज\s+दूँ|चला\s+दूँ|लागू\s+कर\s+दूँ|कर\s+दूँ|कर\s+दूं|करूँ|करूं)|(?:চালিয়ে\s+দেব|চালাব|সেভ\s+করব|সেভ\s+করে\s+দেব|"
        r"রেখে\s+দেব|পাঠাব|পাঠিয়ে\s+দেব|এগোব)(?:\s+কি)?|"
        # vi, id, ms, sw
        r"(?:mình\s+|tôi\s+|em\s+)?(?:lưu|gửi|thực\s+hiện|áp\s+dụng|tiếp\s+tục|tiến\s+hành)(?:\s+(?:luôn|ngay))?\s+"
        r"(?:nhé|không|được\s+không|chứ)|boleh\s+(?:ku|aku\s+|saya\s+)?(?:jalankan|simpan|kirim|terapkan|lanjutkan|"
        r"proses|teruskan|laksanakan|hantar|kemaskini|kemas\s+kini|gunakan)(?:\s+(?:ini|itu|sekarang))?|"
        r"(?:nak|mahu|mau|perlu|perlukah|patutkah)\s+(?:saya|aku)\s+(?:simpan|simpankan|hantar|kirim|kirimkan|"
        r"jalankan|teruskan|lanjutkan|tambah|tambahkan|catat|catatkan)(?:\s+(?:ini|itu|sekarang))?|(?:lanjut|lanjutkan)(?:\s+(?:ya|sekarang))?|"
        r"(?:niendelee|niihifadhi|niitume|niitekeleze|nitekeleze|niifanye|tuendelee)(?:\s+sasa)?|"
        # ja, ko, zh
        r"(?:これで|このまま|この内容で|こちらも|これも)?(?:保存|送信|実行|更新|登録|反映|適用|変更|進め)(?:して|て)(?:も)?"
        r"(?:よろしい|よい|いい|大丈夫)(?:でしょう)?(?:です)?か|(?:進め|実行し|保存し|送信し)ましょうか|"
        r"(?:이렇게\s*)?(?:바꿀까요|고칠까요|저장할까요)|(?:この(?:まま|内容)で)?(?:保存|送信|実行|更新|登録|変更)しても(?:いい)?|"
        r"(?:이대로\s*|그대로\s*)?(?:진행|저장|실행|적용|반영|전송|변경|처리)(?:할까요|해도\s*될까요|해도\s*되나요|해도\s*돼요|해도\s*괜찮을까요|해도\s*괜찮나요|해도\s*괜찮아요|해도\s*괜찮습니까|"
        r"해\s*드릴까요|하시겠어요|하시겠습니까)|(?:이렇게\s*)?해도\s*(?:될까요|되나요|돼요|괜찮을까요|괜찮나요|괜찮아요|괜찮습니까)|(?:要|需要)?我?(?:现在)?(?:这样|这么)?(?:执行|保存|发送|提交|继续|改|修改|更新|记下来|记下)(?:吗|吧)|"
        r"(?:要不要|是否)也?(?:执行|保存|发送|继续|记下来|记下)"
    )
    # Thai asks with a particle, no question mark
    + "|"
    + _bare(
        r"(?:(?:ให้)?(?:ดำเนินการ|บันทึก|ส่ง|อัปเดต|ลุย|ไปต่อ)(?:เลย|ต่อ)?|ได้|โอเค|ดี)(?:ไหม|มั้ย|หรือไม่|ได้ไหม)"
        r"(?:\s*(?:ครับ|คะ|ค่ะ))?",
        mark=False,
    )
)


# A yes to be sent back, between quotation marks: the opening mark and the word are the gate.
_YES: tuple[str, ...] = (
    *["yes", "ok", "okay", "sí", "si", "oui", "ja", "sim", "sì", "да", "так", "tak", "ano", "igen", "evet", "ya"],
    *["iya", "ndiyo", "はい", "네", "예", "是", "好", "对", "نعم", "بله", "آره", "כן", "हाँ", "हां", "হ্যাঁ", "ใช่"],
    *["có", "da", "kyllä", "ναι"],
)
_YES_OPEN = '「『«"“„'
# "that" opening a clause ("note that you prefer ...") points at no block
_DEICTIC = (
    r"(?:it|this|that(?!\s+(?:you|your|I|we|he|she|they|my|our|his|her|their|there|the(?!\s+way))\b)"
    # ("that" before a noun that names no block, no message and no content of one points at
    # something else: "book that table", "look up that recipe")
    r"(?!\s+(?!(?:now|too|for|to|in|into|as|again|first|then|up|down|off|away|on|there|here|right|real|quickly|"
    r"later|today|tonight|tomorrow|once|and|or|so|with|without|before|after|instead|yet|anyway|please|already|"
    r"still|also|one|entry|note|call|change|update|block|version|fact|line|edit|text|info|information|detail|"
    r"details|item|record|reminder|memory|bit|way|mood|search|lookup|query|roll|message|last|second|third|"
    r"final|other|same|new|updated|corrected|previous|whole|exact|email|mail|letter|draft|reply|invite|invitation|"
    r"post|tweet|sms|file|script|code|snippet|command|dice)\b)[a-z]{3,}\b)|these|them|"
    r"the\s+(?:call|update|change|block)s?)"
)
# The pieces of the row that names the block a draft, a preview or a proposal: a sentence's
# start, a pointer with its verb ("this is", "das wäre", "c'est"), then "only", an article and the noun.
_NAMED_START = r"(?:^|[.!?;:(]\s+)[\W_]{0,3}"
_NAMED_POINTER = (
    r"(?:that|this|it|here|das|dies|es|dit|dat|het|esto|eso|es|c['’]est|ce\s+n['’]est|ceci|isso|isto|é|questo|"
    r"è|это|це|to|det|den|tämä|se|bu|ini|itu|đây|αυτό|este|acesta|ez)(?:['’]s|\s+is|\s+would\s+be|\s+was|\s+ist|"
    r"\s+wäre|\s+war|\s+zou\s+zijn|\s+sería|\s+es|\s+serait|\s+est|\s+seria|\s+sarebbe|\s+è|\s+jest|\s+je|"
    r"\s+by\s+byl|\s+är|\s+er|\s+on|\s+olur|\s+adalah|\s+είναι|\s+ar\s+fi|\s+este|\s+lenne|\s+—|\s+-)?"
)
_NAMED_NOUN = (
    r"(?:(?:just|only|merely|still|nur|bloß|erst|lediglich|alleen|maar|slechts|solo|sólo|seulement|juste|que|"
    r"apenas|só|soltanto|лишь|только|лише|тільки|tylko|jen|pouze|bara|kun|vain|sadece|yalnızca|hanya|cuma|chỉ|"
    r"μόνο|doar|csak)\s+)?(?:(?:a|an|my|the|our|ein|mein|der|een|mijn|un|una|mi|el|une|mon|le|um|uma|meu|o|il|"
    r"lo|mio|la|mia|en|ett|min|et|mitt|mit|bir|sebuah|một|ένα|το|egy)\s+)?(?:rough\s+|first\s+|erster\s+|"
    r"eerste\s+)?(?:drafts?|preview|proposal|suggestion|sketch|entwurf|vorschlag|vorschau|concept|voorstel|"
    r"borrador|propuesta|brouillon|proposition|aperçu|ébauche|rascunho|proposta|bozza|черновик|набросок|"
    r"чернетка|szkic|propozycja|koncept|návrh|utkast|förslag|udkast|forslag|luonnos|ehdotus|taslak|öneri|draf|"
    r"usulan|bản\s+nháp|πρόχειρο|προσχέδιο|schiță|ciornă|propunere|vázlat|javaslat|mock-?up|maqueta|maquette)"
)
_NAMED_END = (
    r"(?=\s*(?:[.!,;—–()]|-\s|$|only\b|for\s+(?:now|you|review)|to\s+(?:check|review|approve)|für\s+dich|"
    r"zur\s+(?:ansicht|freigabe)|para\s+(?:revisar|que\s+(?:lo|la)\s+revises)|pour\s+(?:l['’]instant|toi)|"
    r"voor\s+nu|per\s+ora|por\s+ahora))"
)
AFTER: dict[ProblemKind, dict[str, str]] = {
    "proposed": {  # a permission request for this block, or a condition on an earlier call's result
        # "Say yes", a yes to be sent back quoted ("reply «oui»", 「はい」と言って), leave to do
        # something before ("before I store this, ..."), or a confirmation the block waits on
        # ("confírmame la fecha y lo guardo").
        "say-yes": rf"[{_YES_OPEN}](?:{'|'.join(_YES)})\s?[」』»\"”“]|«\s+(?:{'|'.join(_YES)})\s?»|"
        r"\bbefore\s+I\s+(?:store|save|send|apply|run|submit|make|commit|record|add)\s+(?:it|this|that|them|these)\b"
        r"[^\n]*\?|\b(?:confirm|approve)\b[^\n]{0,80}\b(?:and|then)\s+I['’]ll\s+(?:save|send|apply|store|run|update|"
        r"add|make)\s+(?:it|this|that|them|the\s+change)\b|"
        r"\b(?:confírma(?:me|lo)|confirma(?:me|lo)?|dime\s+que\s+sí|di\s+que\s+sí)\b[^\n]{0,80}\by\s+(?:lo|la|los|las)\s+"
        r"(?:guardo|envío|aplico|mando|actualizo|registro|cambio|ejecuto|anoto)\b|"
        r"\b(?:confirme[sz]?(?:-moi)?|dis-moi\s+oui)\b[^\n]{0,80}\bet\s+je\s+(?:l['’]|les\s+)(?:enregistre|envoie|"
        r"applique|note|ajoute)\b|\b(?:confirma|conferma(?:mi)?|dimmi\s+di\s+sì)\b[^\n]{0,80}\be\s+(?:eu\s+)?"
        r"(?:o|a|lo|la)\s+(?:salvo|envio|aplico|guardo|invio|applico|registro)\b|"
        r"\bbestätige?\b[^\n]{0,80}\b(?:dann|und)\s+(?:speichere|sende|übernehme|trage)\s+ich\b|"
        r"\b(?:via\s+libera|luz\s+verde|sinal\s+verde|feu\s+vert|green\s+light|grünes\s+licht)\b|"
        r"「はい」と|\bsag\s+(?:einfach\s+)?ja\b|\bdimmi\s+di\s+sì\b|\bdiga\s+sim\b|\bdiz\s+que\s+sim\b|"
        r"\bdis(?:-moi)?\s+oui\b|\bскажи(?:те)?\s+[«\"]?да\b|"
        # (or told to answer yes or no: "Dis-moi juste oui ou non.", "Just tell me yes or no.")
        r"\b(?:(?:dis|dites)-moi|tell\s+me|say|dime|sag\s+mir|dimmi|me\s+diz|diga(?:-me)?)\s+(?:juste\s+|simplement\s+|just\s+|"
        r"solo\s+|einfach\s+|só\s+)?(?:oui\s+ou\s+non|yes\s+or\s+no|sí\s+o\s+no|ja\s+oder\s+nein|sì\s+o\s+no|sim\s+ou\s+não)\b|"
        # leave to do it asked in a question that puts the writer's making it after the answer
        # ("¿Confirmas las fechas antes de que lo guarde?", "Prima di salvarlo: l'orario è giusto?")
        r"\bantes\s+de\s+(?:que\s+)?(?:lo|la|los|las)\s+(?:guarde|envíe|aplique|anote|cambie|registre|actualice|"
        r"apunte)\b[^\n.!]*\?|\bantes\s+de\s+(?:guardar|enviar|aplicar|anotar|cambiar|registrar|actualizar|"
        r"apuntar|salvar)(?:-?l[oa]s?)?\b[^\n.!]*\?|\bantes\s+que\s+eu\s+(?:o\s+|a\s+)?(?:salve|guarde|envie|registre|"
        r"anote|altere)\b[^\n.!]*\?|\bprima\s+di\s+(?:salvar|inviar|applicar|registrar|aggiornar|cambiar|segnar|"
        r"annotar)(?:l[oaie])\b[^\n.!]*\?|\bprima\s+che\s+(?:lo|la)\s+(?:salvi|invii|applichi|registri|aggiorni)\b"
        r"[^\n.!]*\?|\bavant\s+(?:de\s+l['’]|que\s+je\s+(?:ne\s+)?l['’])(?:enregistrer|envoyer|appliquer|noter|ajouter|"
        r"enregistre|envoie|applique|note|ajoute)\b[^\n.!]*\?|\bbevor\s+ich\s+(?:es|das|ihn|sie)\s+(?:\w+\s+)?"
        r"(?:speichere|sende|eintrage|übernehme|ändere|notiere|abschicke)\b[^\n.!]*\?",
        # A draft held back in other words ("je le garde en attente", "erst, wenn du ...")
        "held": r"\b(?:garde|laisse|mets)\s+en\s+attente\b|\btant\s+que\s+(?:tu\s+n['’]as|vous\s+n['’]avez)\s+pas\s+"
        r"(?:validé|confirmé|approuvé|dit\s+oui)\b|\berst,?\s+wenn\s+du\b[^\n]*\b(?:gibst|bestätigst|zustimmst|"
        r"freigibst|sagst)\b|\b(?:tengo|lascio|metto)\s+in\s+sospeso\b|\bfinché\s+non\s+mi\s+(?:dai\s+(?:l['’]ok|"
        r"il\s+via)|confermi|dici\s+di\s+sì)\b|\b(?:hold|keep)\s+(?:it|this|that)\s+(?:back\s+)?until\s+you\b|"
        r"\blo\s+(?:dejo|guardo|tengo)\s+en\s+espera\b|\bhasta\s+que\s+(?:me\s+)?(?:des|digas)\s+(?:el\s+)?(?:ok|"
        r"visto\s+bueno|luz\s+verde|que\s+sí)\b|\bfico\s+aguardando\s+(?:o\s+)?(?:seu|teu)\b|\baté\s+você\s+(?:liberar|"
        r"aprovar|dizer\s+que\s+sim)\b",
        "en": r"\b(?:shall|should|may|can)\s+I\s+(?:go\s+ahead\s+and\s+)?(?:save|update|apply|send|run|store|"
        r"record|write|change|submit|execute|add|make|do|log|file)\b[^\n]*\b(?:like\s+(?:this|that|so)|"
        r"this\s+way|that\s+way|as\s+(?:shown|above|written|is))\b[^\n]*\?|\b(?:ok|okay|good|fine|alright|"
        r"all\s+right)\s+to\s+(?:(?:save|send|apply|run|update)(?:\s+(?:it|this|that|them))?|go\s+ahead|"
        r"proceed)\s*\?|\b(?:send|save|apply|run|submit|store|execute)\s+(?:it|this|that|them)\s+(?:once|"
        r"when|as\s+soon\s+as|after)\s+you\b|\b(?:just|only|still)\s+a\s+draft\b|\bwaiting\s+(?:for|"
        r"on)\s+your\s+(?:ok|okay|confirmation|approval|go-ahead)\b|\b(?:shall|should|may|can)\s+I\s*\?|"
        r"\b(?:shall|should|may|can)\s+I\s+(?:\w+\s+){0,2}?"
        + _DEICTIC
        # (nor one put after the block's result: "Once we have it, do you want me to compare it ...?")
        + r"\b[^\n]*\?|(?<!\b(?:once|when|after)\s+(?:we|I|you)\s+(?:have|get|see|know)\b[^.!?\n]{0,40})"
        r"\b(?:want|like)\s+me\s+to\s+(?:go\s+ahead\s+and\s+)?(?:\w+\s+){0,2}?"
        + _DEICTIC
        # (not a further step, later or besides: "Want me to send it to you after?", "... to your
        # reading list once I find the title?")
        + r"\b(?![^\n]*\b(?:after|afterwards|later|too|also|as\s+well|(?:once|when)\s+I\s+(?:find|get|have|see))\b)"
        r"[^\n]*\?|"
        r"\bdoes\s+(?:this|that|it)\s+look\s+(?:right|good|ok|okay)\b|"
        r"^\W{0,3}(?:do\s+you\s+)?want\s+(?:it|this|that|them)\s+(?:saved|stored|noted|sent|added|updated|changed|"
        r"recorded|kept|on\s+file|in\s+(?:your\s+|the\s+)?(?:notes|memory|archive))\b[^\n]*\?|"
        r"\b(?:is|was)\s+(?:that|this|it)\s+something\s+you(?:['’]d)?\s+(?:want|like)\s+me\s+to\s+(?:keep|save|store|"
        r"remember|note|add|log)\b[^\n]*\?|"
        # (not where the sentence offers help with anything else, or a later step: "if you need anything
        # else, just say the word", "If you'd like help with a card message later this week, just say the word",
        # "Just say the word if you want help prepping"; something new the reader may want, "If you want a
        # run through of likely questions tonight, just say the word")
        r"(?<!\b(?:anything\s+else|something\s+else|help|later|tonight|tomorrow|(?:want|like|need)\s+(?:a|an|some|another|more))"
        r"\b[^.!?\n]{0,160})\bsay\s+(?:yes|the\s+word|so)\b"
        r"(?![^.!?\n]{0,40}\b(?:anything\s+else|something\s+else|help|later|tonight|tomorrow|(?:want|like|need)\s+(?:a|an|some|another|more))\b)|\bis\s+(?:that|this|it)\s+(?:ok|okay|alright|fine|all\s+right)\b[^\n]*\?|"
        r"\bare\s+you\s+sure\b|\bwithout\s+your\s+(?:ok|okay|approval|permission|go-ahead)\b|"
        r"\bbefore\s+it\s+goes\s+out\b|\b(?:then|and)\s+tell\s+me\s+to\s+(?:send|save|apply|run)\s+(?:it|this|that|them)\b|\buntil\s+you\s+(?:confirm|say|give|approve)\b|"
        r"(?<!\b(?:know|tell\s+me|ping\s+me)\s+)\bonly\s+(?:if|after|once|when)\b|^\W{0,3}\^|\b(?:shall|should|can|may)\s+I\s+(?:go\s+ahead|proceed)\s*\?|"
        r"\b(?:go\s+ahead|proceed)\s+(?:with\s+)?" + _DEICTIC + r"\b[^\n]*\?",
        "es": r"¿\s*(?:lo|la|los|las)\s+(?:guardo|envío|aplico|mando|actualizo|busco|registro)\s+así|\b(?:lo|la|"
        r"los|las)\s+(?:guardo|envío|aplico|mando|actualizo|busco|registro)\s+así\s*\?|¿\s*(?:procedo|"
        r"sigo|confirmas|te\s+vale|vale|de\s+acuerdo)\s*\?|¿\s*(?:procedo|sigo)\s+con\s+(?:esto|este|esta|"
        r"estos|estas)\b|\b(?:solo|sólo)\s+(?:es\s+)?un\s+borrador|\b(?:lo|la|los|las)\s+\w+[oí]o?\s+(?:cuando|"
        r"en\s+cuanto|apenas)\s+(?:me\s+)?(?:lo\s+)?(?:confirmes|apruebes|digas)|"
        r"\bespero\s+tu\s+(?:confirmación|visto\s+bueno|ok)|(?:¿\s*(?:lo|la|los|las)\s+(?:guardo|envío|"
        r"aplico|ejecuto|mando)|¿\s*(?:te\s+parece\s+bien|está\s+bien|"
        r"sigo\s+adelante|quieres\s+que\s+(?:lo|la))|hasta\s+que\s+(?:me\s+)?confirmes|(?<!(?:avísame|avisame|dime|dímelo|dimelo|escríbeme|avisa)\s+)solo\s+si\b)",
        "fr": r"\b(?:ça|cela)\s+(?:te|vous)\s+(?:va|convient)\b[^\n]*\b(?:comme\s+ça|ainsi|comme\s+ceci)\b|"
        r"\bcomme\s+ça\s*\?|\bje\s+(?:l['’]|les\s+)?(?:enregistre|envoie|applique|mets\s+à\s+jour|lance|"
        r"note)\s+(?:comme\s+ça|ainsi)\s*\?|\b(?:tu\s+confirmes|vous\s+confirmez)\s*\?|\bje\s+(?:peux|"
        r"dois)\s+(?:l['’]|les\s+)(?:enregistrer|envoyer|appliquer|lancer)\b[^\n]*\?|\b(?:juste|seulement|"
        r"simplement)\s+un\s+brouillon|\bje\s+(?:l['’]|les\s+)(?:envoie|enregistre|"
        r"applique)\w*\s+(?:dès\s+que|quand|une\s+fois\s+que)\s+tu|\bj['’]attends\s+ta\s+(?:confirmation|"
        r"validation)|(?:je\s+l['’](?:enregistre|envoie|applique)\s*\?|tu\s+veux\s+que\s+je\s+(?:l['’]|"
        r"les\s+)\w+[^\n]*\?|tu\s+veux\s+que\s+je\s+\w+\s+(?:ça|cela|ceci|comme\s+ça)\b[^\n]*\?|"
        r"ça\s+te\s+va\s*\?|"
        r"c['’]est\s+bon\s+pour\s+(?:toi|vous)\s*\?|je\s+peux\s+y\s+aller\s*\?|jusqu['’]à\s+ce\s+que\s+tu\s+confirmes|"
        r"(?<!(?:moi|dis-le-moi|préviens-moi|écris-moi)\s+)seulement\s+si\b)",
        "de": r"\b(?:nur|erst|bloß|lediglich)\s+ein\s+entwurf\b|\b(?:willst|möchtest)\s+du,?\s+dass\s+ich\s+(?:es|das|"
        r"ihn|sie)\s+(?:\w+\s+)?(?:speichere|eintrage|sende|notiere|übernehme|ändere|abschicke)\b[^\n]*\?|\bsobald\s+du\s+(?:es\s+)?(?:bestätigst|"
        r"zustimmst|freigibst)|\bwarte\s+auf\s+deine\s+(?:bestätigung|freigabe|zustimmung)|\b(?:soll|darf|"
        r"kann)\s+ich\s+(?:das|es)\s+so\b|\bso\s+(?:speichern|senden|abschicken|übernehmen|"
        r"eintragen)\s*\?|\bpasst\s+(?:das|es)\s+so\s*\?|\beinverstanden\s*\?|(?:\bsoll\s+ich\s+(?:das|es|"
        r"ihn|sie|die)\b[^\n]*\?|\bpasst\s+das\s*\?|\bist\s+das\s+(?:ok|okay|in\s+"
        r"ordnung)\b[^\n]*\?|\bdarf\s+ich\b[^\n]*\?|\bbis\s+du\s+(?:es\s+)?bestätigst|(?<!\b(?:meld|melde|sag|schreib|schreibe|ruf)\s+(?:(?:dich|mir|mich|einfach|bescheid|mal)\s+){0,2})\bnur\s+(?:wenn|falls)\b)",
        "pt": r"\b(?:só|apenas)\s+um\s+rascunho|\bsó\s+(?:mando|envio|salvo)\s+quando\s+(?:você|vc)\s+(?:aprovar|confirmar)\b|\b(?:envio|salvo|aplico|mando|atualizo|registro)\s+(?:assim|"
        r"desse\s+jeito|dessa\s+forma)\s*\?|\bposso\s+(?:\w+\s+)?assim\s*\?|\b(?:envio|salvo|"
        r"aplico)\s+(?:quando|assim\s+que)\s+você\s+confirmar|\baguardo\s+(?:a\s+)?sua\s+(?:confirmação|"
        r"aprovação)|\bpode\s+ser\s*\?|(?:\bposso\s+(?:salvar|enviar|aplicar)(?:\s+(?:isso|isto|assim|"
        r"desse\s+jeito|dessa\s+forma))?\s*\?|\bposso\s+(?:prosseguir|seguir|avançar|continuar)(?:\s+com\s+(?:isso|"
        r"isto))?\s*\?|\bposso\s+(?:salvá|enviá|aplicá)-l[oa]s?\b[^\n]*\?|\bquer\s+que\s+eu\s+(?:o|a|os|"
        r"as)\s+\w+[^\n]*\?|\bquer\s+que\s+eu\s+\w+\s+(?:isso|isto|assim|ess[ae]\s+(?:busca|pesquisa|consulta|chamada|alteração|"
        r"mudança|atualização|anotação|nota))\b[^\n]*\?|"
        r"\bestá\s+bom\s+assim\s*\?|\btudo\s+bem\s*\?|\btudo\s+bem\s+se\s+eu\s+(?!também\b)\w+(?:\s+(?:essa|esta|isso|isto|esse|este|a|o)(?:\s+\w+)?)?\s*\?|\bprefiro\s+confirmar\s+(?:antes|primeiro)\b|\baté\s+(?:você\s+)?confirmar|(?<!(?:avisa|avise|diz|diga|fala|fale)\s+)\bsó\s+se\b|"
        r"\bprocedo\s*\?|\bprocedo\s+(?:assim|com\s+(?:isso|isto|esta|este|essa|esse))\b[^\n]*\?)",
        "it": r"\b(?:solo|soltanto)\s+una\s+bozza|\b(?:lo|la)\s+(?:salvo|invio|applico|aggiorno|mando|"
        r"registro)\s+così\s*\?|\b(?:procedo|confermi)\s*\?|\b(?:lo|la)\s+(?:invio|salvo|applico)\s+(?:appena|"
        r"quando|non\s+appena)\s+mi\s+dai\s+(?:l['’]ok|il\s+via)\b|\bprocedo\s+con\s+(?:questa|questo|queste|"
        r"questi)\b[^\n]*\?|\b(?:lo|la)\s+(?:invio|salvo|applico)\s+(?:appena|quando|"
        r"non\s+appena)\s+(?:mi\s+)?confermi|\baspetto\s+(?:la\s+)?tua\s+conferma|"
        r"\bti\s+va\s+bene\s+così\s*\?|(?:\bposso\s+(?:procedere|salvarl\w|inviarl\w|"
        r"applicarl\w)\b[^\n]*\?|\bvuoi\s+che\s+(?:lo|la|li)\b"
        r"(?!\s+(?:prossim|volt|prim|stess|sua|tua|mia))[^\n]*\?|\bva\s+bene\s+così\s*\?|\bfinché\s+non\s+confermi|(?<!(?:dimmelo|dimmi|avvisami|scrivimi)\s+)\bsolo\s+se\b)",
        "ru": r"(?:только|лишь|пока)\s+черновик|(?:ты\s+|вы\s+)?не\s+против,?\s+если\s+я\b[^\n]*\?|"
        r"пока\s+(?:что\s+)?не\s+(?:сохраняю|отправляю|выполняю|"
        r"применяю)\s*(?:[—–,.;!]|$)|жду\s+(?:твоего|вашего)\s+(?:подтверждения|одобрения)|(?:сохранить|"
        r"отправить|применить|обновить|записать|искать)\s+(?:так|в\s+таком\s+виде)\s*\?|"
        r"так\s+(?:подойд\w+|пойдёт|нормально)\s*\?|подтверждаете\s*\?|подтверждаешь\s*\?|"
        r"(?:сохранить\s*\?|отправить\s*\?|применить\s*\?|всё\s+верно\s*\?|подтвердите|"
        r"можно\s+(?:сохранить|"
        r"отправить)|^\W{0,3}можно\s+(?:менять|поменять|изменить|заменить|обновить|записать|вносить|внести)\s*\?|^\W{0,3}точно\s+(?:сохранить|записать|отправить|применить|обновить)\s*\?|"
        r"подтверди(?:те)?,?\s+и\s+я\s+(?:сохраню|запишу|отправлю|обновлю|внесу)|(?<!(?:пиши|напиши|скажи|сообщи|пишите|напишите|скажите|сообщите)\s+)только\s+если|вы\s+уверены|"
        # (not a later or further step: "хотите, чтобы я потом поставил напоминание?")
        r"хотите,?\s+чтобы\s+я(?!\s+(?:\w+\s+)?(?:потом|позже|завтра|ещё|еще|также|тоже)(?!\w)))",
        "zh": r"只是(?:一个)?草稿|(?:这样|就这样)(?:保存|发送|执行|更新|搜索|记录)?(?:可以|行)吗|(?:等|待)你确认|要(?:保存|发送|执行|更新|搜索)吗|同意的话|"
        r"(?:可以吗|要我(?:保存|发送|执行)|(?:你)?确定要(?:改|修改|更新|保存|替换|换)吗|请确认|好吗[？?]|是否(?:保存|发送|执行)|确认后|只有在(?![^\n]{0,20}(?:告诉我|通知我|跟我说|说一声|找我)))",
        "ja": r"(?:確認|承認)(?:して|し)?(?:いただけ|もらえ|くれ)(?:たら|れば)[、,]?\s*(?:送り|保存し|登録し|実行し)ます|"
        r"(?:この|こちらの)?(?:内容|形)で(?:保存|送信|実行|更新|検索|登録|書き換え|変更|反映)(?:して)?(?:も)?(?:よろしい|いい|大丈夫)|"
        r"あくまで(?:案|提案|下書き)|OKを(?:出して|いただいて|もらって)から|OKが出てから|(?:これ|このまま|こちら|こう)(?:で|"
        r"を)?[^\n]{0,10}(?:保存|送信|実行|更新|登録|検索)して(?:も)?(?:よろしい|いい|大丈夫)|下書きです|下書きの段階|(?:ご)?確認(?:いただき|"
        r"でき)?次第[、,]?\s*(?:送信|保存|実行|登録|適用)(?:します|いたします)|ご承認|^\W{0,3}(?:これで|このまま|この内容で|こちらで|こう)?(?:よろしいですか|"
        r"いいですか|保存しますか|送信しますか)|^\W{0,3}(?:保存|送信|実行|更新|登録|適用)して(?:も)?(?:よろしい|いい|大丈夫)(?:です|でしょう)?か|(?:これ|このまま|この内容|こちら)で(?:よろしい|いい)(?:です)?か|^\W{0,3}(?:ご)?確認(?:して|を)?(?:ください|"
        r"お願いします)",
        "nl": r"\b(?:alleen|slechts|nog\s+maar)\s+een\s+concept\b|\bvind\s+je\s+het\s+goed\s+(?:dat|als)\s+ik\b[^\n]*\?|\bpas\s+(?:iets\s+)?als\s+(?:je|jij|u)\s+akkoord|\bwacht\s+op\s+je\s+(?:bevestiging|akkoord|"
        r"goedkeuring)|\bzo\s+(?:opslaan|versturen|doorvoeren|bewaren)\s*\?|(?:\b(?:zal|mag|moet|"
        r"kan)\s+ik\s+(?:\w+\s+){0,2}?(?:dit|dat|het|deze|ze)\b[^\n]*\?|\bklopt\s+(?:dit|dat)\b"
        r"[^\n]*\?|\bis\s+(?:dit|dat)\s+(?:goed|oké|ok|correct|in\s+orde)\b[^\n]*\?|\bzeg\s+(?:ja|maar\s+ja)\b|"
        r"\btot(?:dat)?\s+je\s+(?:het\s+)?bevestigt|\balleen\s+als\b(?![^\n]{0,60}\bweten\b)|\bdan\s+(?:voer|sla|"
        r"stuur)\s+ik\s+(?:het|dit|dat)\b)",
        "sv": r"\b(?:bara|endast)\s+ett\s+utkast\b|\bväntar\s+på\s+(?:ditt|din)\s+(?:godkännande|bekräftelse|"
        r"ok)|\bspara\s+(?:det\s+)?så\s+här\s*\?|\bska\s+jag\s+(?:\w+\s+)?så\s+här\b[^\n]*\?|"
        r"(?:\bska\s+jag\s+(?:\w+\s+){0,2}?(?:det|den|detta|dem)\b[^\n]*\?|\bstämmer\s+(?:det|"
        r"detta)\b[^\n.!]*\?|"
        r"\bser\s+(?:det|detta)\s+(?:rätt|bra)\s+ut\b|\bsäg\s+till\s+om\s+det\s+stämmer|\bsvara\s+ja\b|"
        r"\bså\s+(?:genomför|sparar|skickar|uppdaterar|kör)\s+jag\s+(?:den|det|ändringen)\b|\btills\s+du\s+bekräftar|"
        r"(?<!\b(?:hör\s+av\s+dig|säg\s+till|säg|skriv|meddela\s+mig|ring)\s+)\bbara\s+om\s+du\b)",
        "da-nb": r"\b(?:kun|bare)\s+(?:et|en)\s+(?:udkast|utkast)\b|\bventer\s+på\s+(?:din|di)\s+(?:bekræftelse|"
        r"bekreftelse|godkendelse|godkjenning)|\b(?:gem|lagre)\s+(?:det\s+)?(?:sådan|slik)\s*\?|"
        r"\bskal\s+jeg\s+(?:\w+\s+)?(?:sådan|slik)\b[^\n]*\?|(?:\bskal\s+jeg\s+(?:\w+\s+){0,2}?(?:det|den|"
        r"dette|dem)\b[^\n]*\?|\bser\s+det\s+(?:rigtigt|riktig)\s+ud?t?\b|"
        r"\ber\s+det\s+(?:ok|okay|i\s+orden|greit|korrekt|riktig)\s*\?|\ber\s+det\s+(?:ok|okay|i\s+orden|greit|fint)\s+(?:at|om)\s+jeg\b[^\n?]*\?|\bsig\s+ja\b|\bsi\s+ja\b|"
        r"\b(?:indtil|til)\s+du\s+(?:bekræfter|bekrefter))",
        "cs-pl": r"\b(?:jen|zatím\s+jen|tylko|na\s+razie\s+tylko)\s+(?:návrh|koncept|szkic|wersja\s+robocza)\b|"
        r"\b(?:tohle|toto|to)\s+bych\s+(?:provedl|udělal|uložil|spustil|odeslal)\w*|\bdokud\s+neodpovíš\b|\bnic\s+neměním\b|"
        r"\bdopiero\s+po\s+(?:twoim|twojej|pana|pani)\s+(?:potwierdzeniu|akceptacji|zgodzie)\b|"
        r"\bse\s+(?:nejdřív|nejprve|napřed)\s+ptám\b|\b(?:nejdřív|nejprve|napřed)\s+se\s+ptám\b|"
        r"\b(?:wyślę|zapiszę|dodam|odešlu|uložím|pošlu)\b[^\n]{0,30}\b(?:jak\s+tylko|gdy|kiedy|po\s+tym,?\s+jak|"
        r"jakmile|až)\s+(?:to\s+)?(?:potwierdzisz|zatwierdzisz|zaakceptujesz|potvrdíš|schválíš)\b|"
        r"\bčekám\s+na\s+(?:tvoje|vaše)\s+(?:potvrzení|schválení)|\bczekam\s+na\s+(?:twoje|pana|"
        r"pani)\s+(?:potwierdzenie|zgodę)|\b(?:uložit|odeslat|zapisać|wysłać)\s+(?:to\s+)?(?:takto|takhle|"
        r"tak)\s*\?|\bczy\s+(?:mogę|mam)\s+(?:ją|je|go|to)\s+(?:\w+\s+)?(?:wysłać|zapisać|zastosować|"
        r"uruchomić|zaktualizować|wykonać)|\b(?:můžu|mám)\s+(?:ji|ho|to|je)\s+(?:\w+\s+)?(?:odeslat|"
        r"uložit|použít|spustit)|(?:\bmám\s+(?:to|ji|jej|ho|je)\b[^\n]*\?|\bmůžu\s+(?:to|ji|"
        r"jej)\b[^\n]*\?|\b(?:stačí\s+)?napi[sš]\w*\s+"
        r"[\"„“]?ano\b|\bje\s+to\s+(?:tak\s+)?(?:v\s+pořádku|správně)\s*\?|\bdokud\s+(?:to\s+)?nepotvrdí|"
        r"\bczy\s+mam\s+(?:to|je|go|ją)\b[^\n]*\?|\bczy\s+(?:to|tak)\s+(?:jest\s+)?(?:ok|dobrze|w\s+porządku)\b"
        r"[^\n]*\?|^\W{0,3}czy\s+mogę\s*\?|\bnapisz\s+[\"„“]?tak\b|\bdopóki\s+nie\s+potwierdzi|(?<!(?:znać|napisz|powiedz|pisz|odezwij\s+się)\s+)\btylko\s+jeśli\b)",
        "uk": r"поки\s+(?:що\s+)?не\s+(?:зберігаю|надсилаю|відправляю|виконую|застосовую)\s*(?:[—–,.;!]|$)|"
        r"можна\s+(?:так\s+)?(?:записати|зберегти|додати|оновити)\b[^\n]*\?|без\s+(?:твоєї|вашої)\s+згоди|"
        r"(?:зберегти|записати|сохранить|записать)\s+(?:саме|именно)\s+так\s*\?|"
        r"чекаю\s+на\s+(?:твоє|ваше)\s+(?:підтвердження|схвалення)|(?:лише|тільки|поки\s+що)\s+чернетка|"
        r"(?:(?:це|його|її)\s+(?:зберегти|надіслати|застосувати)\s*\?|(?:зберегти|надіслати|"
        r"застосувати)\s+(?:це|його|її)"
        r"\s*\?|^\W{0,3}(?:зберегти|надіслати|застосувати)\s*\?|все\s+правильно\s*\?|підтвердіть|чи\s+можна\s+"
        r"(?:зберегти|надіслати)|(?<!(?:пиши|напиши|скажи|повідом|повідомте|скажіть|напишіть|дай\s+знати)\w*,?\s+)(?:тільки|лише)\s+якщо|ви\s+впевнені|хочете,?\s+щоб\s+я\s+(?:це|його|її))",
        "fi-hu": r"\bsaanko\s+(?:ajaa|suorittaa|tallentaa|lähettää|lisätä|päivittää|tehdä|kirjata)\s+(?:sen|tämän|tuon|nämä|ne)\b|"
        r"\b(?:haenko|etsinkö|ajanko|suoritanko|lisäänkö|muutanko|korvaanko|kirjaanko|tallennanko|"
        r"lähetänkö|päivitänkö|teenkö)\s+(?:sen|tämän|tuon|nämä|ne|näin|tällä|tätä|noin|näillä)\b|"
        r"^\W{0,3}(?:haenko|etsinkö|ajanko|suoritanko|lisäänkö|muutanko|kirjaanko)\s*\?|\b(?:mentsem|"
        r"küldjem|keressek|futtassam|módosítsam|rögzítsem)\s+(?:el\s+|le\s+|rá\s+)?(?:így|ezt|azt|"
        r"ezzel)\b|(?:\b(?:tallennanko|lähetänkö|päivitänkö|teenkö)\s+(?:sen|tämän|tuon|nämä|ne|näin)\b|"
        r"^\W{0,3}(?:tallennanko|lähetänkö|päivitänkö)\s*\?|\bsopiiko\s+(?:tämä|tuo|se)\b[^\n]*\?|\bnäyttääkö\s+"
        r"(?:tämä|tuo|se)\s+oikealta|\bkunhan\s+vahvistat|\bkun\s+vahvistat|\bvahvistatko\b|(?<!\b(?:kerro|ilmoita|sano|kirjoita|soita)\s+)\bvain\s+jos\b|"
        r"\b(?:elmentsem|elküldjem|alkalmazzam|frissítsem)\s+(?:így|ezt|azt)\b|\b(?:ezt|azt|így)\s+"
        r"(?:elmentsem|elküldjem|alkalmazzam|frissítsem)\b|\bígy\s+jó\s*\?|\brendben\s+(?:van\s+)?így\s*\?|"
        r"\berősítsd\s+meg\b|\bhagyd\s+jóvá\b)",
        "ro-ca": r"\b(?:doar|numai)\s+o\s+(?:ciornă|schiță)|\baștept\s+confirmarea\s+ta|"
        r"\bnomés\s+és\s+un\s+esborrany|\bespero\s+la\s+teva\s+confirmació|\b(?:el|la)\s+(?:deso|"
        r"envio)\s+així\s*\?|(?:\bsă\s+(?:îl|o|le|îi)\s+(?:salvez|trimit|aplic|rulez|execut|pornesc|lansez)\b[^\n]*\?|"
        r"\be\s+(?:în\s+regulă|corect)\s+așa\s*\?|\b(?:îmi\s+dai\s+voie|îmi\s+permiți)\s+să\s+\w+[^\n]*\?|"
        r"\bconfirmă-mi\b|\bpână\s+(?:nu\s+)?confirmi|\b(?:el|la|ho)\s+(?:deso|envio|aplico)\b[^\n]*\?|"
        r"\bet\s+sembla\s+bé\s*\?|\bet\s+sembla\s+bé\s+que\s+(?:ho|el|la|els|les)\s+\w+[^\n.!]*\?|\bfins\s+que\s+(?:no\s+)?confirmis|(?<!(?:digues(?:-m['’]ho)?|avisa['’]m|escriu-me|fes-m['’]ho\s+saber),?\s+)\bnomés\s+si\b)",
        "tr": r"(?:sadece|yalnızca)\s+bir\s+taslak|onayını\s+bekliyorum|\b(?:bunu|onu|böyle|"
        r"bu\s+şekilde)\s+(?:\w+\s+)?(?:arayayım|ekleyeyim|güncelleyeyim|kaydedeyim|göndereyim)\s+mi\b|"
        r"(?:(?:^\W{0,3}|\b(?:bunu|onu|bunları)\s+(?:\w+\s+)?)(?:kaydedeyim|göndereyim|uygulayayım|"
        r"çalıştırayım)\s+mi\b|"
        r"(?:bu|böyle)\s+(?:doğru|uygun|tamam)\s+mu\b|onaylayana\s+kadar|onaylarsan(?:ız)?\s+(?:kaydeder|"
        r"gönderir|uygular))",
        "el": r"(?:μόνο|απλώς)\s+(?:ένα\s+)?προσχέδιο|περιμένω\s+(?:την\s+)?επιβεβαίωσ|(?:να\s+(?:το|την|τα|"
        r"τον)\s+(?:αποθηκεύσω|στείλω|εφαρμόσω|εκτελέσω)\b|είναι\s+σωστό\s*[;;?]|μέχρι\s+να\s+"
        r"επιβεβαιώσ|πες\s+μου\s+ναι|(?<!(?:πες\s+μου|ενημέρωσέ\s+με|γράψε\s+μου|πείτε\s+μου|ενημερώστε\s+με),?\s+)μόνο\s+αν\b|να\s+προχωρήσω\s*[;;?])",
        "vi": r"chỉ\s+là\s+(?:bản\s+)?nháp|(?:bạn\s+)?có\s+đồng\s+ý\s+(?:để|cho)\s+(?:mình|tôi|em)\b[^\n]*không|(?:bạn\s+)?có\s+muốn\s+(?:mình|tôi)\s+(?:chạy|lưu|gửi|cập\s+nhật)|(?:đợi|chờ)\s+bạn\s+xác\s+nhận|(?:lưu|gửi)\s+(?:như\s+thế\s+này|"
        r"như\s+vậy)\s+(?:nhé|nha|được\s+không)|(?:bạn\s+xác\s+nhận\s+thì|xác\s+nhận\s+giúp|(?:lưu|gửi|"
        r"cập\s+nhật)\s+(?:nhé|nha|không)\s*\?|"
        r"(?:như\s+vậy|thế\s+này|vậy)\s+(?:được|ổn|đúng)\s+(?:chưa|không)|đồng\s+ý\s+thì|"
        r"cho\s+đến\s+khi\s+bạn\s+xác\s+nhận)",
        "id-ms": r"\bmenunggu\s+(?:konfirmasi|persetujuan)|\b(?:simpan|kirim)\s+(?:seperti\s+ini|begini)\s*\?|"
        r"\bboleh\s+(?:aku|saya)\s+(?:simpan|kirim|hantar|terapkan|jalankan|lanjutkan|teruskan|perbarui|"
        r"cari|sambung)\w*\s+(?:\w+\s+)?(?:ini|itu|begini)\s*\?|\b(?:mau|mahu|nak)\s+(?:aku|"
        r"saya)\s+(?:simpan|kirim|hantar|terapkan|jalankan|lanjutkan|teruskan|"
        r"cari)\w*\s+(?:\w+\s+)?(?:ini|itu|begini)\s*\?|\b(?:hanya|cuma|baru)\s+draf\b|"
        r"(?:\bboleh\s+(?:aku|saya)\s+(?:simpan|kirim|terapkan|jalankan|lanjutkan|perbarui)\w*\s*(?:ini|"
        r"itu|sekarang)?"
        r"\s*\?|\b(?:bilang|katakan|jawab|balas)\s+[\"“]?ya\b|\b(?:kalau|jika)\s+(?:kamu|anda)?\s*setuju\b|"
        r"\bsetelah\s+(?:kamu|anda)\s+(?:konfirmasi|setuju)|\bapakah\s+(?:ini|itu)\s+sudah\s+benar\b|"
        r"\bperlu\s+(?:aku|saya)\s+(?:simpan|kirim)\w*\s*\?)",
        "ar-fa": r"مجرد\s+مسودة|أنتظر\s+(?:تأكيدك|موافقتك)|فقط\s+یک\s+پیش[\u200c ]?نویس|منتظر\s+تأیید|هل\s+أ(?:حفظ|"
        r"رسل|نفذ|طبق|بحث|حدث|ضيف|سجل)\s+(?:هذا|هذه|ذلك|هكذا|بهذا|بهذه)|(?:أحفظه|أرسله|أنفذه|أطبقه|"
        r"أسجله)\s*[؟?]|این\s+(?:\S+\s+){0,3}?(?:را\s+)?(?:انجام\s+(?:بدهم|بدم|دهم)|اجرا\s+کنم|"
        r"اعمال\s+کنم|ارسال\s+کنم|ذخیره\s+کنم|بفرستم)\s*[؟?]|(?:^|(?<!هم)\s)(?:اعمال|ارسال|ذخیره|اجرا)\s+کنم\s*[؟?]|(?:أن\s+أ(?:حفظ|رسل|نفذ|طبق)(?:ها|ه)|"
        r"هل\s+أ(?:حفظ|رسل|نفذ|طبق)(?:ها|ه)|(?:أخبرني|قل\s+نعم)\s+وسأ(?:نفذ|حفظ|رسل|طبق)|حتى\s+تؤكد|"
        r"بعد\s+تأكيدك|هل\s+هذا\s+صحيح|^\W{0,3}(?:\S+\s+)?ذخیره(?:\u200c?اش)?\s+کنم\s*[؟?]|"
        r"ذخیره\u200c?اش\s+کنم\s*[؟?]|^\W{0,3}(?:\S+\s+)?بفرستم\s*[؟?]|بفرستمش\s*[؟?]|تأیید\s+کن|"
        r"تایید\s+کن|اجازه\s+می[\u200c ]?دهی(?:د)?\s+[^\n؟?]{0,30}[؟?])",
        "he": r"(?:רק|זו\s+רק)\s+טיוטה|מחכה\s+לאישור|(?:לשמור|לשלוח)\s+(?:ככה|כך)\s*\?|(?:נראה\s+נכון\s*\?|"
        r"תגיד(?:י)?\s+כן|אם\s+תאשר|עד\s+שתאשר|(?:לשמור|לשלוח|לעדכן)\s+את\s+זה\s*\?|"
        r"האם\s+(?:לשמור|לשלוח|לעדכן))",
        "hi-bn": r"(?:सिर्फ़|सिर्फ|केवल)\s+(?:एक\s+)?(?:ड्राफ्ट|मसौदा)|पुष्टि\s+का\s+इंतज़ार|"
        r"নিশ্চিতকরণের\s+অপেক্ষা|শুধু\s+(?:একটা\s+)?খসড়া|(?:এভাবে|এইভাবে|এটা|এটি|"
        r"এটাকে)\s+(?:\S+\s+){0,2}?(?:করব|করবো|পাঠাব|পাঠাবো|রাখব|রাখবো)\s*[?？]|(?:ऐसे|इस\s+तरह|इसे|यह|"
        r"इसको)\s+[^\n?]{0,30}(?:करूँ|करूं|दूँ|दूं|भेजूँ|भेजूं|सहेजूँ|सहेजूं)\s*\?|(?:क्या\s+मैं\s+(?:इसे|"
        r"यह|इसको)|(?:सहेज|भेज)(?:ूँ|ूं)\s*\?|पुष्टि\s+करें|(?:हाँ|हां)\s+कहें|"
        r"अगर\s+आप\s+सहमत|সংরক্ষণ\s+করব\s*\?|পাঠাব\s*\?|নিশ্চিত\s+করুন)",
        "th-ko": r"แค่ฉบับร่าง|รอคุณยืนยัน|บันทึกแบบนี้(?:ไหม|มั้ย|ได้ไหม)|초안일\s+뿐|확인을\s+기다리|이렇게\s+(?:저장|전송|"
        r"보내)(?:할까요|도\s+될까요|해도\s+될까요)|(?:(?:บันทึก|ส่ง)(?:ไว้)?(?:เลย)?(?:ไหม|มั้ย)|ถูกต้องไหม|ตกลงไหม|"
        r"กรุณายืนยัน|"
        r"(?:이대로|이렇게|이걸|이것을|그대로)\s*(?:\S+\s+)?(?:저장|전송|적용|진행|실행)할까요|이대로\s+괜찮|"
        r"확인해\s?주시면|승인해\s?주(?:세요|시면))",
        "sw": r"\bni\s+rasimu\s+tu\b|\bnasubiri\s+uthibitisho|\bniendelee\b[^\n]*\?|\bnipe\s+ruhusa\b|\b(?:nihifadhi|nitume)\s+hivi\s*\?|"
        r"(?:\bnihifadhi\s*\?|\bnitume\s*\?|\bje,?\s+ni\s+sawa\s*\?|\bthibitisha\b|\bsema\s+ndiyo\b|\bniambie\s+[\"“„«]?\w+[\"”»]?\s+(?:nami|na\s+mimi)\s+nita\w+|\bukiridhika\b)",
        # A sentence that only names the block a draft, a preview or a proposal ("Das wäre mein
        # Entwurf.", "Just a preview — nothing saved yet.", "Dit is een concept;"): the block is
        # the thing named, in any language's order of pointer, verb and noun. A noun that goes on
        # into a clause of its own ("Draft saved to your archive.") names no block, unless a
        # pointer said the block is one ("That's only a mock-up of the entry.").
        "named": _NAMED_START
        + "(?:"
        + _NAMED_POINTER
        + r"\s+)?"
        + _NAMED_NOUN
        + _NAMED_END
        + "|"
        + _NAMED_START
        + _NAMED_POINTER
        + r"\s+"
        + _NAMED_NOUN
        + r"\s+(?:of|for|de|du|des|del|da|do|di|von|für|van|voor|для|из|av|af|för|til)\b",
        # Permission, drafts and conditions in further words of several languages.
        "several": r"\bposso\s+(?:guardar|gravar|registrar|anotar|atualizar|executar|trocar|mudar|substituir)(?:\s+"
        r"(?:isso|isto|assim|essa|esta|esse|este))?\s*\?|¿\s*puedo\s+(?:guardar|aplicar|ejecutar|cambiar)\w*\b[^\n]*\?|"
        r"要我(?:现在|马上|这就|直接)?(?:执行|保存|提交|应用|写入)(?:它|这个|这条)?吗|(?:可以|能)(?:执行|保存|提交|应用)了?吗|"
        r"이렇게\s+(?:바꿔|변경해|수정해|저장해|적용해|보내|기록해|추가해)도\s+(?:될까요|되나요|되겠습니까|돼요|괜찮을까요|괜찮나요|괜찮아요|괜찮습니까)|"
        r"(?:괜찮다고|좋다고)\s+하시면|(?:이대로|이렇게|그대로)\s*(?:반영|적용|저장|실행)할까요|"
        r"\bonaylıyor\s+mu(?:sun|sunuz)?\b|\bevet\s+de(?:rsen|rseniz)\b|\buygulayayım\s+mı|"
        r"(?:застосувати|зберегти|надіслати|внести|виконати)\s+(?:цю|ці|це|цей|її|його|їх)\b[^\n]*\?|"
        r"(?:применить|сохранить|отправить|выполнить|внести)\s+(?:это|эту|этот|эти|его|её|их)\b[^\n]*\?|"
        r"\bc['’]est\s+(?:un|le|seulement\s+un|juste\s+un)\s+brouillon\b|\bqu['’]après\s+(?:ta|votre|ton)\s+"
        r"(?:validation|confirmation|accord|feu\s+vert)|\b(?:it['’]s|this\s+is)\s+(?:a|the)\s+draft\b|"
        r"\bes\s+un\s+borrador\b|\bé\s+um\s+rascunho\b|\bè\s+una\s+bozza\b|\bist\s+ein\s+entwurf\b|"
        r"\berst\s+nach\s+deiner\s+(?:freigabe|bestätigung|zustimmung)|"
        # "only if" about the first call's result, not "tell me only if something is wrong"
        r"\b(?:doar|numai)\s+dacă\s+(?:prima|primul|căutarea)\b|\balleen\s+als\s+(?:de\s+eerste|het\s+eerste|"
        r"de\s+zoekopdracht)\b|\btylko\s+(?:jeśli|jeżeli|gdy)\s+(?:pierwsz\w*|wyszukiwanie)\b|\b(?:jen|pouze)\s+"
        r"(?:pokud|když)\s+(?:první|hledání)\b|только\s+если\s+(?:перв\w*|поиск)|(?:лише|тільки)\s+якщо\s+(?:перш\w*|"
        r"пошук)",
        # Leave asked in other words: approval the block waits on ("just confirm and it's done",
        # "let me know if that's OK and I'll do it", "happy for me to save that?", "si ifra, så
        # legger jeg den inn", "confirmi și o aplic?", "er det i orden, at jeg gør det?").
        "leave": r"\bconfirm\b[^\n]{0,40}\band\s+(?:it['’]s|it['’]ll\s+be|it\s+will\s+be)\s+(?:done|saved|"
        r"applied|sent|updated|in)\b|\bif\s+(?:that|this|it)(?:['’]s|\s+is)\s+(?:ok|okay|fine|alright|all\s+right|"
        r"good)\b[^\n]{0,40}\b(?:and|then)\s+I['’]ll\s+(?:go\s+ahead|(?:do|save|apply|send|run|make|update|add)\s+"
        r"(?:it|this|that|them|the\s+change))\b|"
        r"\b(?:happy|ok|okay|fine|alright)\s+(?:for|with)\s+me\s+(?:to\s+)?(?:\w+\s+){0,2}?" + _DEICTIC + r"\b[^\n]*\?|"
        r"\b(?:si|sig)\s+(?:ifra|fra|til)\s*,\s*(?:så|og)\s+(?:legger|lagrer|gjør|sender|fører|lægger|gemmer|gør|"
        r"opdaterer|oppdaterer)\s+(?:jeg|eg)\b|\ber\s+det\s+(?:i\s+orden|ok|okay|greit|fint)\s*,?\s+(?:at|om)\s+"
        r"(?:jeg|eg)\s+(?:\w+\s+){1,2}?(?:det|den|dem|ændringen|endringen)(?:\s+(?:nu|nå))?\s*\?|\bconfirmi\b[^\n]{0,40}\bși\s+(?:o|îl|le|i|il)\s+(?:aplic|salvez|trimit|actualizez|"
        r"rulez|fac)\b|\bconfirmi\s*\?",
        # A sign asked for, then the block made on it ("Give me a thumbs up and it goes in", "Sag
        # Bescheid, dann führe ich es aus", "你说一声我就保存"): the making waits on the sign. A
        # sign-off that only invites more ("let me know if ...") names no making of its own.
        "on-a-sign": r"\b(?:give|send)\s+me\s+(?:a|the|your)\s+(?:thumbs[\s-]up|nod|go-ahead|ok|okay)\b[^\n]{0,40}"
        r"\b(?:and|then)\s+(?:I['’]ll|I\s+will|it\s+goes|it['’]ll\s+go)\b|\b(?:let\s+me\s+know|tell\s+me|say\s+so)\s*"
        r"(?:,\s*)?(?:and|then)\s+I['’]ll\s+(?:save|store|send|run|apply|execute|submit|file)\s+(?:it|this|that|them)\b|"
        r"\b(?:sag|gib)\s+(?:mir\s+)?(?:einfach\s+)?(?:bescheid|das\s+ok|das\s+okay|ein\s+zeichen)\s*,?\s*(?:dann|und)\s+"
        r"(?:führe|speichere|trage|sende|übernehme|schicke)\s+ich\b|"
        r"\b(?:dammi|dimmi|fammi\s+sapere)(?:\s+(?:il\s+via|l['’]ok|l['’]okay|un\s+cenno|di\s+sì))?\s*,?\s*"
        r"e\s+(?:lo|la|li|le)\s+(?:applico|salvo|invio|eseguo|registro|"
        r"mando)\b|\b(?:avísame|dime|dame\s+el\s+(?:ok|visto\s+bueno))\s*,?\s*y\s+(?:lo|la|los|las)\s+(?:guardo|"
        r"aplico|envío|ejecuto|registro|mando)\b|\b(?:dis-moi|fais-moi\s+signe|donne-moi\s+ton\s+(?:accord|ok))\s*,?\s*"
        r"et\s+je\s+(?:l['’]|les\s+)(?:enregistre|applique|envoie|exécute|note)\b|\b(?:me\s+avis[ae]|avis[ae]-me|"
        r"me\s+d[áê]\s+o\s+(?:ok|sinal))\s*,?\s*e\s+eu\s+(?:o|a|os|as)\s+(?:salvo|aplico|envio|executo|registro|guardo)\b|"
        r"\blaat\s+(?:het\s+)?(?:me\s+)?(?:maar\s+)?weten\s*,?\s*(?:dan|en)\s+(?:sla|voer|verstuur|zet)\s+ik\b|"
        r"\bsäg\s+till\s*,?\s*så\s+(?:sparar|skickar|kör|lägger)\s+jag\b|"
        r"(?:скажи(?:те)?|дай(?:те)?\s+знать)\s*,?\s*и\s+я\s+(?:сохраню|отправлю|выполню|запишу|внесу)|"
        r"(?:скажи|скажіть|дай(?:те)?\s+знати)\s*,?\s*і\s+я\s+(?:збережу|надішлю|виконаю|запишу)|"
        r"\bdaj(?:cie)?\s+znać\s*,?\s*(?:a|i|to)\s+(?:to\s+|go\s+)?(?:zapiszę|wyślę|wykonam)\b|"
        r"\bdej\s+(?:mi\s+)?vědět\s*,?\s*a\s+(?:to\s+)?(?:uložím|pošlu|provedu)\b|"
        r"(?:你|您)?(?:说一声|点个头|点头|同意|确认一下)(?:的话)?[，,]?\s*我(?:就|再|马上)(?:保存|执行|发送|记录|存|提交)|"
        r"(?:言って|教えて)(?:くれれば|いただければ|もらえれば)[、,]?\s*(?:保存|実行|送信|登録)します|"
        r"(?:말씀|말)(?:해\s*주시면|하시면|해\s*주면)\s*(?:바로\s*)?(?:저장|실행|전송|등록)(?:할게요|하겠습니다)|"
        r"\bsano\s+(?:vain|niin)?\s*,?\s*niin\s+(?:tallennan|lähetän|suoritan|lisään)\b|"
        r"\bszólj\s*,?\s*és\s+(?:elmentem|elküldöm|lefuttatom|felveszem)\b|"
        r"\bspune-mi\s*,?\s*și\s+(?:o|îl|le)\s+(?:salvez|trimit|aplic|adaug)\b|"
        r"\bhaber\s+ver(?:in)?\s*,?\s*(?:hemen\s+)?(?:kaydedeyim|kaydederim|göndereyim|gönderirim|eklerim)\b|"
        r"\b(?:kabari|beritahu|bagi\s+tahu)\s+(?:saja|sahaja|aku|saya)?\s*,?\s*(?:nanti|terus|lalu)\s+(?:saya|aku)\s+"
        r"(?:simpan|kirim|hantar|jalankan|tambahkan)\b|"
        r"\bbạn\s+(?:nói|báo)\s+(?:một\s+tiếng\s+)?(?:là|thì)\s+(?:mình|tôi)\s+(?:lưu|gửi|chạy)\b|"
        r"(?:תגיד|תגידי|תאשר|תאשרי)\s+ו(?:אשמור|אשלח|אוסיף|אבצע)|(?:أخبرني|قل\s+لي|أعطني\s+الإشارة)\s+و(?:سأحفظه|سأحفظها|"
        r"أحفظه|أحفظها|سأرسله|سأنفذه)|(?:बता\s+(?:दीजिए|दें|दो)|हाँ\s+कह\s+(?:दीजिए|दें))\s*,?\s*(?:मैं\s+)?(?:सेव|सहेज|भेज)\s+"
        r"(?:कर\s+)?(?:दूँगा|दूंगा|दूँगी|दूंगी)|(?:πες\s+μου|δώσε\s+μου\s+το\s+ok)\s*,?\s*και\s+(?:το|τα)\s+(?:αποθηκεύω|στέλνω|"
        r"εκτελώ|προσθέτω)",
    },
    "example": {  # a disclaimer: it was only shown, nothing ran
        "en": r"\b(?:just|only|merely)\s+(?:to\s+)?(?:show|illustrate|demonstrate)\b[^\n]{0,40}\b(?:would|could|"
        r"looks?|format|shape|syntax)\b|\b(?:only|just)\s+(?:an?\s+)?(?:illustration|example|sample|demo|"
        r"demonstration)\b|"
        r"\bnothing\s+(?:was|has\s+been|is|got)\s+(?:actually\s+)?(?:saved|stored|changed|run|executed|sent|"
        r"searched|called)\b|(?<!\b(?:you|he|she|they|we)\s)\b(?:I\s+)?(?:didn['’]t|did\s+not|haven['’]t|have\s+not|wasn['’]t|was\s+not|isn['’]t|"
        r"won['’]t|will\s+not)\s+(?:actually\s+)?(?:be\s+)?(?:run|ran|execute[ds]?|store[ds]?|save[ds]?|sen[dt]|"
        r"call(?:ed)?|appl(?:y|ied))\b|\bonly\s+(?:what|how)\b[^\n]{0,60}\blooks?\s+like\b|\bthe\s+shape\s+of\b|"
        r"\bnot\s+(?:sent|saved|applied|executed|run)\s+yet\b|\bholding\s+it\b|\bnothing\s+goes\s+out\b",
        "es": r"\b(?:solo|sólo)\s+(?:es\s+)?para\s+(?:mostrar|ilustrar|enseñar)|\bno\s+estoy\s+llamando\s+a\s+nada\b|"
        r"\bcitad[ao]s?\s+tal\s+cual\b|\bno\s+(?:he\s+)?(?:guardado|"
        r"ejecutado|enviado|buscado)\s+nada|\bno\s+(?:guardé|ejecuté|envié|busqué)\s+nada|\bno\s+(?:lo|"
        r"la)\s+(?:voy\s+a|pienso)\s+(?:ejecutar|guardar|enviar)|"
        r"\btodavía\s+no\s+(?:lo\s+)?(?:he\s+)?(?:guardado|enviado|ejecutado)|"
        r"(?:solo\s+(?:es\s+)?un\s+ejemplo|no\s+se\s+ha\s+(?:guardado|ejecutado|enviado)|"
        r"no\s+(?:lo\s+|la\s+|los\s+|las\s+)?he\s+"
        r"(?:guardado|ejecutado|enviado)|no\s+se\s+guardó\s+nada|nada\s+se\s+ha\s+guardado|"
        r"\b(?:solo|sólo)\s+(?:es\s+)?para\s+que\s+(?:veas|vea|veáis)\b)",
        "fr": r"\b(?:juste|seulement|simplement|uniquement)\s+pour\s+(?:montrer|illustrer)|"
        r"\bje\s+n['’]ai\s+(?:encore\s+)?rien\s+(?:enregistré|sauvegardé|noté|ajouté|envoyé|exécuté|lancé|cherché|fait)|"
        r"\bje\s+ne\s+l['’]ai\s+pas\s+(?:encore\s+)?(?:enregistré|envoyé|exécuté|lancé)|"
        r"(?:juste\s+un\s+exemple|seulement\s+un\s+exemple|rien\s+n['’]a\s+été|je\s+n['’]ai\s+(?:rien|"
        r"pas)\s+"
        r"(?:enregistré|exécuté|lancé|envoyé)|n['’]a\s+pas\s+été\s+(?:exécuté|enregistré))|"
        # (only a demonstration: "Fue solo una demostración.", "Era solo una dimostrazione.")
        r"\b(?:solo|sólo|só|apenas|juste|seulement|uniquement|soltanto|solamente|nur)\s+(?:(?:una|uma|un|une|eine)\s+)?"
        r"(?:demostración|demonstração|démonstration|dimostrazione|demonstration|demo)\b|"
        # none of what the block would change was changed ("aucune donnée n'a été modifiée"; not
        # "aucune autre", which tells the block's change apart from the rest)
        r"\baucune?\s+(?!autres?\b)(?:\w+\s+){0,2}?n['’](?:a|ont)\s+été\s+(?:modifié|enregistré|changé|"
        r"sauvegardé|envoyé|exécuté|touché)",
        "de": r"\bnur\s+(?:zur\s+)?(?:veranschaulichung|illustration|demonstration|anschauung)|"
        r"\b(?:das\s+ist|das\s+war|ist)\s+nur\s+die\s+form\b|\bgespeichert\s+habe\s+ich\s+nichts\b|"
        r"\bnur\s+um\s+(?:dir\s+)?zu\s+zeigen|\bich\s+habe\s+(?:noch\s+)?nichts\s+(?:gespeichert|gesendet|"
        r"ausgeführt|gesucht|geändert)|\bnoch\s+nicht\s+(?:abgeschickt|gesendet|gespeichert|ausgeführt)|"
        r"\bzeigt\s+nur,?\s+wie|(?:nur\s+ein\s+beispiel|nichts\s+wurde|nicht\s+(?:ausgeführt|gespeichert|"
        r"gesendet)|habe\s+nichts\s+"
        r"gespeichert)",
        "pt": r"\b(?:só|apenas)\s+(?:pra|para)\s+(?:mostrar|ilustrar|exemplificar)|\b(?:só|apenas)\s+(?:pra|para)\s+(?:você\s+)?"
        r"ver\s+como\s+(?:seria|ficaria)\b|\bnão\s+(?:alterei|mudei|modifiquei|atualizei)\s+nada\b|\bnão\s+(?:guardei|salvei|"
        r"gravei|executei|enviei|busquei)\s+nada|\bainda\s+não\s+(?:salvei|enviei|executei|guardei)|"
        r"(?:apenas\s+um\s+exemplo|só\s+um\s+exemplo|nada\s+foi|não\s+foi\s+(?:salvo|executado|enviado)|"
        r"não\s+"
        r"(?:salvei|executei))|\bnenhuma?\s+(?!outr)(?:\w+\s+){0,2}?foi\s+(?:alterad|salv|modificad|gravad|"
        r"enviad|consultad|buscad|pesquisad)\w*|\bnão\s+fiz\s+(?:a|nenhuma)\s+(?:busca|pesquisa|alteração)\b|\bnão\s+(?:pesquisei|procurei|anotei|registrei|rodei|chamei|gravei)\s+nada\b(?!\s+(?:além|mais))|"
        r"^\W{0,3}não\s+(?:o\s+)?(?:rodei|executei)\b|"
        r"\b(?:só|apenas)\s+o\s+(?:aspeto|aspecto|formato)\s+de\b",
        "it": r"\bsolo\s+per\s+(?:mostrare|illustrare|farti\s+vedere)|\bnon\s+(?:ho\s+)?(?:salvato|eseguito|"
        r"inviato|cercato)\s+nulla|\bnon\s+l['’]ho\s+(?:ancora\s+)?(?:salvato|eseguito|inviato|"
        r"registrato)|\bnon\s+ancora\s+(?:salvato|inviato|eseguito)|(?:solo\s+un\s+esempio|"
        r"non\s+è\s+stato\s+(?:salvato|eseguito|inviato)|non\s+ho\s+(?:salvato|eseguito)|"
        r"nulla\s+è\s+stato)|\bnessun[oa]?\s+(?!altr)(?:\w+\s+){0,2}?è\s+stat[oa]\s+(?:modificat|salvat|"
        r"cambiat|inviat)\w*|\bnon\s+l['’]ho\s+(?:ancora\s+)?(?:eseguit|salvat|inviat|registrat|cercat|lanciat)[aie]\b|"
        r"\bti\s+mostro\s+solo\b|\bsolo\s+com['’]è\s+fatt[oa]\b|\bsolo\s+l['’]aspetto\s+d|"
        r"\bnon\s+ho\s+(?:ancora\s+)?(?:inserito|aggiunto|modificato|cambiato|registrato|scritto|toccato)\s+"
        r"(?:nulla|niente)\b(?!\s+(?:altro|oltre|di\s+più))",
        "ru": r"(?:только|лишь|просто)\s+(?:для\s+)?(?:демонстрац|иллюстрац|наглядност)\w*|(?:ещё|"
        r"пока)\s+не\s+(?:сохранил|отправил|выполнил|записал|искал)|ничего\s+не\s+(?:искал|записал|"
        r"отправлял)|(?:только\s+пример|просто\s+пример|ничего\s+не\s+(?:сохранено|сохранил|выполнено|"
        r"отправлено)|не\s+"
        r"(?:выполнял|сохранял|запускал))",
        # (去 before the verb only points the step outward: "我没有真正去搜索")
        "zh": r"(?:并|还|都|其实)?没(?:有)?(?:真的|实际|真正)?去?(?:保存|执行|发送|运行|调用|搜索|记录|写入)|"
        r"没(?:有)?(?:修改|更改|改动)(?:任何|什么)|只是(?:调用|它)的样子|只是(?:一个)?(?:示例|例子|演示|展示|说明)|仅(?:供|"
        r"为|作)(?:演示|参考|示例|说明)|演示(?:一下)?[^\n]{0,10}的样子|(?:只是(?:一个)?(?:示例|例子)|没有(?:保存|执行|发送)|未(?:执行|保存|发送)|"
        r"并未)",
        "ja": r"(?:見本|サンプル|イメージ)(?:です|にすぎません)|(?:形|書き方|例)を見せた(?:だけ)?|実際には[^\n]{0,16}?(?:変えて|して|されて)いません|実際には(?:保存|実行|送信|検索)(?:して|され)(?:い)?ません|まだ(?:保存|送信|実行|検索)(?:して|"
        r"され)(?:い)?ません|(?:お見せした|示した)だけ|(?:例です|例にすぎません|実行していません|保存していません|送信していません|変更していません|示しただけ)|"
        r"(?:実行|保存|送信|変更)(?:は|も)して(?:い)?ません|見せるため(?:だけ)?です|(?:実行|保存|送信)(?:は|も)?していない|"
        r"何も(?:記録|保存|送信)されていません|見た目の例",
        "nl": r"\b(?:alleen|slechts|gewoon)\s+om\s+(?:te\s+)?(?:laten\s+zien|tonen|illustreren)|"
        r"\b(?:alleen|slechts|puur|enkel)\s+ter\s+(?:illustratie|verduidelijking)|"
        r"\bik\s+heb\s+(?:nog\s+)?niets\s+(?:opgeslagen|verstuurd|uitgevoerd|gezocht)|(?:(?:slechts|"
        r"alleen|maar|gewoon)\s+een\s+voorbeeld|\bniets\s+(?:is\s+)?(?:opgeslagen|verstuurd|uitgevoerd)|"
        r"\bik\s+heb\s+(?:niets|het\s+niet)\s+(?:opgeslagen|uitgevoerd|verstuurd)|\bniet\s+uitgevoerd)",
        "sv": r"\b(?:bara|endast)\s+för\s+att\s+(?:visa|illustrera)|\bjag\s+har\s+inte\s+(?:sökt|gjort\s+något)|"
        r"(?:\b(?:bara|endast|enbart)\s+ett\s+exempel|\binget\s+(?:har\s+)?(?:sparats|sparades|skickats|"
        r"körts)|"
        r"\bjag\s+har\s+inte\s+(?:sparat|kört|skickat)|\bhar\s+inte\s+(?:sparats|körts|skickats))",
        "da-nb": r"\b(?:kun|bare)\s+for\s+(?:at|å)\s+vise|\bjeg\s+har\s+ikke\s+(?:søgt|søkt|gjort\s+noget|"
        r"gjort\s+noe)|(?:\b(?:kun|bare)\s+et\s+eksempel|\b(?:kun|bare)\s+en\s+visning|"
        r"\b(?:intet|ingenting)\s+er\s+(?:blevet\s+|blitt\s+)?(?:gemt|sendt|kørt|"
        r"lagret|kjørt)|"
        r"\bjeg\s+har\s+ikke\s+(?:gemt|kørt|sendt|lagret|kjørt))",
        "cs-pl": r"\bjen\s+abych\s+ukázal\w*|\bnic\s+jsem\s+(?:neuložil|neodeslal|nehledal)\w*|"
        r"\bnic\s+nie\s+(?:zapisałem|wysłałem|szukałem)|\b(?:tylko|jedynie)\s+(?:żeby|aby|by)\s+pokazać|"
        r"\bjen\s+(?:pro\s+)?(?:názornost|ilustraci)|(?:\bjen\s+(?:pro\s+)?(?:ukázk|příklad)|"
        r"\bpouze\s+příklad|\bnic\s+(?:jsem\s+)?(?:neuložil|nespustil|neodeslal)|"
        r"\bnic\s+nebylo|\b(?:tylko|jedynie)\s+przykład|\bnic\s+nie\s+(?:zostało\s+)?(?:zapisan|wysłan|"
        r"uruchomion|zapisałem)|"
        r"\bnie\s+(?:zapisałem|wykonałem|uruchomiłem))",
        "uk": r"(?:лише|тільки|просто)\s+(?:для\s+)?(?:демонстрац|ілюстрац)\w*|(?:ще|поки)\s+не\s+(?:зберіг|"
        r"надіслав|виконав|зберігаю)|(?:(?:лише|тільки|просто)\s+приклад|нічого\s+не\s+(?:збережено|"
        r"зберіг|виконано|надіслано|виконував)|"
        r"не\s+(?:виконував|зберігав|запускав))",
        "fi-hu": r"\b(?:vain|pelkästään)\s+(?:havainnollistamaan|näyttääkseni)|\bvain\s+malli\b|"
        r"\bmitään\s+ei\s+(?:ole\s+)?(?:vielä\s+)?(?:tallennettu|lähetetty|suoritettu)\b|"
        r"\bcsak\s+(?:hogy\s+)?(?:szemléltessem|megmutassam)|\bcsak\s+szemléltetés|(?:\b(?:vain|pelkkä|"
        r"pelkästään)\s+esimerkki|\ben\s+(?:tehnyt|tallentanut|suorittanut|lähettänyt)\b|"
        r"\bmitään\s+ei\s+(?:tallennettu|lähetetty|suoritettu)|\bcsak\s+(?:egy\s+)?példa|\bcsak\s+a\s+formátum|"
        r"\bnem\s+(?:mentettem|futtattam|küldtem)|\bnem\s+kerestem\s+semmit|\bsemmit\s+nem\s+kerestem|\bsemmi(?:t)?\s+nem\s+(?:mentettem|futtattam|küldtem))",
        "ro-ca": r"\b(?:doar|numai)\s+ca\s+să\s+(?:arăt|ilustrez)|\bnomés\s+(?:és\s+)?per\s+(?:mostrar|il·lustrar|ensenyar)|"
        r"\bno\s+he\s+(?:buscat|cercat)\s+(?:res|cap)\b|\bni\s+he\s+(?:desat|enviat|executat|buscat|cercat)\b|"
        r"\bno\s+he\s+(?:desat|enviat|executat)\s+res|(?:\bdoar\s+un\s+exemplu|\bnu\s+am\s+(?:salvat|"
        r"rulat|executat|trimis)|\bnimic\s+nu\s+a\s+fost|"
        r"\bnomés\s+(?:és\s+)?un\s+exemple|\bno\s+(?:he|s['’]ha)\s+(?:desat|executat|enviat)|"
        r"\bno\s+(?:l['’]|els\s+|les\s+)he\s+(?:desat|executat|enviat)\w*|\bnomés\s+perquè\s+(?:vegis|vegeu)\b)",
        "tr": r"(?:sadece|yalnızca)\s+[^\n]{0,40}göstermek\s+için|(?:arama|kayıt)\s+yapmadım|"
        r"(?:sadece|yalnızca)\s+nasıl\s+işlediğini|şimdi\s+(?:çalıştırmıyorum|kaydetmiyorum|göndermiyorum)|"
        r"gerçekten\s+[^\n]{0,20}(?:yapmadım|kaydetmedim|göndermedim|çalıştırmadım)|(?:(?:sadece|"
        r"yalnızca)\s+(?:bir\s+)?örnek|hiçbir\s+şey\s+(?:kaydedilmedi|gönderilmedi|çalıştırılmadı)|"
        r"(?:kaydetmedim|çalıştırmadım|göndermedim))|(?<!başka\s)hiçbir\s+şey\s+\w*(?:madım|medim)\b|"
        r"nasıl\s+göründüğünü\s+göster",
        "el": r"(?:μόνο|απλώς)\s+για\s+να\s+(?:δείξω|φανεί)|δεν\s+(?:έκανα|αποθήκευσα)\s+τίποτα|(?:(?:απλώς|"
        r"μόνο)\s+(?:ένα\s+)?παράδειγμα|δεν\s+(?:το\s+|τα\s+|την\s+)?(?:αποθήκευσα|εκτέλεσα|έστειλα)|"
        r"τίποτα\s+δεν\s+(?:αποθηκεύτηκε|εκτελέστηκε|στάλθηκε))|δεν\s+(?:έψαξα|έτρεξα|κατέγραψα)\b(?![^\n]{0,30}(?:αλλού|άλλο|άλλη|άλλα))|"
        r"μόνο\s+για\s+να\s+(?:δεις|δείτε)\b",
        "vi": r"chỉ\s+để\s+(?:minh\s+họa|cho\s+thấy|bạn\s+xem)|(?:mình|"
        r"tôi)\s+(?:vẫn\s+)?chưa\s+(?:thực\s+sự\s+)?(?:lưu|gửi|chạy|tìm)(?:\s+(?:gì|cả|nó))?\s*(?:[.!,;]|"
        r"$)|(?:chỉ\s+là\s+(?:một\s+)?(?:ví\s+dụ|minh\s+họa|minh\s+hoạ)|chưa\s+(?:lưu|gửi|chạy|"
        r"thực\s+hiện)\s+gì|"
        r"không\s+(?:lưu|chạy)\s+gì)",
        "id-ms": r"\b(?:hanya|cuma|sekadar)\s+untuk\s+(?:menunjukkan|memperlihatkan|ilustrasi)|(?:\b(?:hanya|cuma|"
        r"sekadar)\s+(?:sebuah\s+|satu\s+)?(?:contoh|gambaran)|\bbelum\s+ada\s+yang\s+(?:tersimpan|disimpan|dijalankan|"
        r"dikirim)|\btidak\s+ada\s+(?:hasil\s+)?yang\s+(?:disimpan|dijalankan|tersimpan)|\b(?:cuma|hanya)\s+tampilan\w*|"
        r"\bbelum\s+(?:melempar|menyimpan|menjalankan|mengirim)(?:\s+\w+)?\s+(?:apa-apa|apa\s+pun|apapun)\b|\b(?:aku|saya)\s+(?:tidak|belum)\s+(?:menyimpan|"
        r"menjalankan|mengirim|mencari)\w*(?:\s+(?:apa-apa|apa\s+pun|apapun|itu|ini))?\s*(?:[.!,;]|$))",
        "ar-fa": r"(?:فقط|مجرد)\s+(?:لتوضيح|للتوضيح|لإظهار|للعرض)|لم\s+أحفظ\s+شيئا|فقط\s+برای\s+(?:نشان\s+دادن|"
        r"توضیح)|چیزی\s+ذخیره\s+نکردم|(?:مجرد\s+مثال|فقط\s+مثال|لم\s+(?:أبحث|أحفظ|أنفذ|أرسل)|"
        r"لم\s+يتم\s+(?:حفظ|تنفيذ|إرسال)|مجرد\s+(?:توضيح|عرض|مثال)\s+ل?شكل|"
        # (the passive: "nothing was saved", "لم يُحفظ أي شيء")
        r"لم\s+يُ?(?:حفظ|نفذ|نفّذ|رسل|سجل|سجّل)\s+(?:أي|اي)\s+شيء|"
        r"فقط\s+یک\s+مثال|(?:ذخیره|اجرا|ارسال)\s+نکردم|فقط\s+شکل\s+[^\n]{0,20}?نشان\s+می|"
        # ("only a showing of the call's shape; no search was done")
        r"فقط\s+نمایش|هیچ\s+[^\n]{0,20}?(?:انجام|ذخیره|اجرا|ارسال)\s+نشد)",
        "he": r"רק\s+(?:כדי\s+)?(?:להמחיש|להראות)|לא\s+שמרתי\s+כלום|(?:רק\s+דוגמ|לא\s+(?:שמרתי|הרצתי|שלחתי|"
        r"ביצעתי|עדכנתי)|שום\s+דבר\s+לא\s+(?:נשמר|נשלח|בוצע)|רק\s+המחשה)",
        "hi-bn": r"(?:सिर्फ़|सिर्फ|केवल)\s+(?:\S+\s+){0,2}?(?:दिखाने|समझाने)\s+के\s+लिए|"
        r"শুধু(?:মাত্র)?\s+(?:\S+\s+){0,2}?দেখানোর\s+জন্য|কিছুই\s+(?:সেভ|সংরক্ষণ)\s+(?:করিনি|হয়নি|করা\s+হয়নি)|"
        r"कुछ\s+भी\s+(?:सेव|सहेजा)\s+(?:नहीं|न)\s+(?:हुआ|किया)|(?:(?:सिर्फ़|सिर्फ|केवल|मात्र)\s+(?:एक\s+)?उदाहरण|(?:सहेजा|चलाया|"
        r"भेजा)\s+नहीं|नहीं\s+(?:सहेजा|चलाया|भेजा)|"
        r"শুধু(?:মাত্র)?\s+(?:একটি\s+|একটা\s+)?উদাহরণ|সংরক্ষণ\s+করিনি|(?:কিছু|কিছুই)\s+খুঁজিনি)",
        "th-ko": r"แค่แสดงให้ดู|보여\s?(?:드리기|주기)\s+위한|(?:แค่ตัวอย่าง|เพียงตัวอย่าง|ยังไม่ได้(?:บันทึก|ส่ง|รัน)|"
        r"예시일\s+뿐|예일\s+뿐|(?:저장|실행|전송)하지\s+않았|"
        r"아무것도\s+(?:저장|실행)|보여\s*드리려고|보여\s*드린\s*(?:것일|거일)\s*뿐|저장된\s*(?:건|것은|것도|내용은)\s*아무것도\s*없)",
        "sw": r"\bni\s+kwa\s+kuonyesha\s+tu\b|\bni\s+kuonyesha\s+tu\b|\bhakuna\s+\w+\s+(?:ulioendeshwa|iliyofanywa|kilichohifadhiwa|"
        r"uliotumwa)\b|\bsijahifadhi\s+chochote\b|(?:\bni\s+mfano\s+tu\b|\bsijahifadhi\b|"
        r"\bsijaendesha\b|\bhakuna\s+kilichohifadhiwa\b)",
        # "Nothing" and the participle of the step in one clause, in either order and with at
        # most a few words between ("Nothing saved yet", "gespeichert habe ich noch nichts",
        # "no he guardado nada"): nothing ran; "nothing else" or "nada más" speaks of the rest.
        "nothing-done": r"(?<!(?:sonst|else|otherwise|autrement|altrimenti|anders|иначе)(?:[ \t]+[\w'’]+){0,3}[ \t]+)"
        r"(?<!\w)(?:nothing|nichts|rien|nada|niente|nulla|niets|inget|ingenting|ничего)"
        + _NOTHING_ELSE
        + r"(?:[ \t]+[\w'’]+){0,3}?[ \t]+"
        + _DONE_STEP
        + r"(?![ \t]+(?:except|but|außer|sauf|excepto|salvo|tranne|"
        r"behalve|utom|кроме)(?!\w))|" + _DONE_STEP + r"(?:[ \t]+[\w'’]+){0,3}?[ \t]+"
        r"(?:nothing|nichts|rien|nada|niente|nulla|niets|inget|ingenting|ничего)" + _NOTHING_ELSE,
        # Disclaimers in further words of several languages.
        "several": r"\bsolo\s+per\s+mostrar(?:ti|le|vi)\b|\bnon\s+ho\s+memorizzato\s+(?:niente|nulla)\b|"
        r"(?<!\w)فقط\s+(?:یک\s+)?نمونه|چیزی\s+ذخیره\s+نشد|"
        r"\bsolo\s+come\s+(?:apparirebbe|sarebbe|verrebbe|si\s+presenterebbe)|(?:per\s+ora|finora)\s+non\s+ho\s+"
        r"(?:cambiato|modificato|toccato|salvato|eseguito)\s+(?:nulla|niente)|"
        r"(?:แค่|เพียง)ให้ดู|ยังไม่ได้(?:ค้นหา|ค้น|เปลี่ยน|แก้)|"
        r"\bto\s+(?:tylko|jedynie)\s+(?:pokaz|przykład|ilustracja|demonstracja)\b|\bniczego\s+nie\s+(?:rzuciłem|"
        r"zapisałem|wysłałem|zmieniłem|uruchomiłem)|\bto\s+je\s+(?:jen|pouze)\s+(?:ukázka|příklad)\b|"
        r"\bnoch\s+nichts\s+(?:geändert|gespeichert|ausgeführt)|\bje\s+n['’]ai\s+encore\s+rien\s+(?:changé|modifié|"
        r"enregistré|lancé)|\bainda\s+não\s+(?:mudei|alterei|guardei|executei)\s+nada\b",
    },
    "retracted": {
        # the earlier block set aside by name ("olvida lo anterior", "se bort fra den")
        "forget-it": r"\b(?:olvida|ignora|descarta)\s+lo\s+(?:anterior|de\s+arriba)\b|не\s+учитыва(?:й|йте)\s+(?:это|его|её|их)|"
        r"\b(?:se\s+bort|bortse)\s+fra\s+(?:den|det|dette|denne)\b|\bglem\s+(?:den|det|dette)\b(?!\s+ikke)|"
        r"\bglöm\s+(?:den|det)\b(?!\s+inte)|\bstrunta\s+i\s+(?:den|det)\b|\b(?:vergeet|negeer)\s+(?:die|dat|"
        r"de\s+vorige)\b(?!\s+niet)|\boublie[sz]?\s+(?:le\s+précédent|la\s+précédente|celui-là|celle-là)\b|"
        r"\besquece\s+(?:o|a)\s+anterior\b|\bdimentica\s+(?:quello|quella|il\s+precedente|la\s+precedente)\b|"
        r"\bforget\s+(?:the\s+(?:previous|last|first)\s+one|that\s+one)\b|"
        # the block above named by its place ("Laisse tomber celui-là", "Верхнее не в счёт",
        # "Pomiń to wyżej", "Unohda yllä oleva")
        r"\blaisse\s+tomber\s+(?:celui-là|celle-là|le\s+précédent|la\s+précédente|le\s+premier|la\s+première)\b|"
        r"(?:(?:верхн|предыдущ)\w*(?:\s+(?:вызов|блок|вариант|запрос))?|перв\w*\s+(?:вызов|блок|вариант))\s+"
        r"(?:не\s+в\s+сч[её]т|не\s+считается)|"
        # the block above set aside as not to be counted ("ne tiens pas compte du bloc précédent",
        # "disregard the block above", "no tengas en cuenta el bloque anterior")
        r"\bne\s+(?:tiens|tenez)\s+pas\s+compte\s+(?:du|de\s+(?:ce|cet|la|l['’]))\s*(?:bloc|appel|précédent|premier|"
        r"ci-dessus|dessus)|\bdisregard\s+(?:the\s+)?(?:(?:block|call|one)\s+above|(?:previous|first|last)\s+"
        r"(?:one|block|call))\b|\bno\s+(?:tengas|tenga|tengáis|tengan)\s+en\s+cuenta\s+(?:el|la|lo)\s+(?:bloque|"
        r"llamada|anterior|de\s+arriba|primer)|\bnon\s+(?:considerare|considerate|tenere\s+conto\s+del)\s+"
        r"(?:il\s+)?(?:blocco|precedente|primo|quello\s+sopra)|\bdesconsider[ea]\s+o\s+(?:bloco|anterior|de\s+cima|"
        r"primeiro)|\bignore[sz]?\s+(?:le\s+bloc|l['’]appel|celui)\s+(?:du\s+dessus|d['’]au-dessus|ci-dessus|précédent|"
        r"d['’]avant)|не\s+обращай(?:те)?\s+внимания\s+на\s+(?:(?:блок|вызов|запрос)\s+)?(?:выше|сверху|предыдущ\w*)|"
        r"上面(?:那个|的|这个)?(?:不算|无效)|\bnie\s+bierz(?:cie)?\s+pod\s+uwagę\s+(?:bloku|wywołania|tego)\s+(?:wyżej|"
        r"powyżej|poprzedniego)|\bscratch\s+(?:the\s+)?(?:(?:previous|last|first)\s+(?:block|call|one)|(?:block|call|one)\s+"
        r"above)\b|"
        r"\b(?:pomiń|zignoruj|olej)\s+(?:to\s+|blok\s+|wywołanie\s+)?(?:wyżej|powyżej|poprzedni\w*|pierwsz\w*)|"
        r"забуд(?:ь|ьте)\s+(?:(?:блок|вызов|запрос)\s+выше|(?:верхн|предыдущ|перв)\w*)|"
        r"\blascia(?:te)?\s+(?:stare|perdere)\s+(?:quello|quella|il\s+blocco)\s+(?:sopra|di\s+sopra|precedente)\b|"
        r"(?:ऊपर|वो|वह|पहला|पिछला)\s+वाला\s+(?:छोड़िए|छोड़\s+दीजिए|छोड़\s+दो|छोड़ो|भूल\s+जाइए|भूल\s+जाओ|रद्द)|"
        r"\bunohda\s+(?:yllä\s+oleva|ylläoleva|ylempi|ensimmäinen)\b",
        "en": r"^\W{0,3}(?:wait,?\s+|oops,?\s+)?(?:that|this)\s+(?:one\s+)?(?:was|is)\s+wrong\s*[.!,;:—–-]|"
        r"(?:^|[.!]\s+)\W{0,3}better\s*[:：]\s*$|"
        r"^\W{0,3}correct(?:ed|ion)\s*(?:version|call|block)?\s*[:：]|\b(?:hang|hold)\s+on,?\s+that['’]s\s+(?:wrong|not\s+right)\b|\bwait,?\s+(?:no|"
        r"that['’]s\s+(?:wrong|not\s+right))\b|\bhere['’]s\s+the\s+right\s+one\b|\b(?:scratch|scrap)\s+that\b|"
        r"\bignore\s+(?:the|that|this|my)\s+(?:\w+\s+)?(?:call|block|one)\b|"
        r"\bdisregard\b|\bretract\b|\bcancel\s+that\b|\bdon['’]t\s+(?:run|use|execute)\s+(?:that|it|this)\b|"
        r"\bwrong\s+(?:block|call|one)\b|^\W{0,3}(?:(?:actually|oops|wait|hmm),?\s+)?that['’]s\s+the\s+wrong\s+\w+|\bnever\s+mind\b|\b(?:use|here['’]s)\s+(?:this|the)\s+(?:one|corrected)\b",
        "es": r"^\W{0,3}(?:perdón,?\s+)?eso\s+(?:está|estaba)\s+mal\s*[.!,;:—–-]|^\W{0,3}(?:corrijo|"
        r"corrección)\s*[:：]|\bla\s+(?:correcta|buena)\s+es\b|\b(?:esta|este)\s+es\s+(?:la|el)\s+(?:correcta|correcto|buena|bueno)\b|"
        r"\bme\s+he\s+(?:liado|equivocado)\b|(?:olvida\s+(?:eso|esa|la)|ignora\s+(?:la|"
        r"esa|esta)|me\s+equivoqué|descarta|anula)",
        "fr": r"\bc['’]est\s+faux\b|\berreur\s+de\s+ma\s+part\b|^\W{0,3}(?:je\s+corrige|correction)\s*[:：]|"
        r"\bvoici\s+la\s+bonne\s+version|(?:oublie[sz]?\s+(?:ça|ce|cet|l['’]appel)|"
        r"ignore[sz]?\s+(?:l['’]appel|ce|cet)|annule|je\s+me\s+suis\s+trompé)",
        "de": r"^\W{0,3}(?:(?:halt|moment|stopp|hoppla|ups),?\s+)?das\s+(?:ist|war)\s+falsch\s*[.!,;:—–-]|^\W{0,3}(?:korrektur|"
        r"ich\s+korrigiere)\s*[:：]|\bfehler\s+meinerseits\b|(?:vergiss\s+(?:das|den|die)\b(?!\s+nicht)|"
        r"nehme\s+ich\s+zurück|zurückgenommen|ignorier\w*|streich\s+das|falscher\s+aufruf|"
        # (the block above not to be run, "bitte diesen Aufruf nicht ausführen")
        r"\b(?:diesen|den|das|dieses)\s+(?:aufruf|block)\s+(?:bitte\s+)?nicht\s+(?:ausführen|verwenden|beachten)\b|"
        r"\b(?:aufruf|block)\s+(?:oben\s+|von\s+eben\s+)?(?:bitte\s+)?verwerfen\b)",
        "pt": r"^\W{0,3}(?:opa,?\s+)?isso\s+(?:está|estava)\s+errado\s*[.!,;:—–-]|^\W{0,3}(?:corrigindo|"
        r"correção)\s*[:：]|\bo\s+certo\s+é\b|(?:(?<!não\s)esque(?:ça|ce)\s+(?:isso|essa|esse|a|o)\b|ignore\s+(?:a|essa|esta)|"
        r"desconsider[ea]|me\s+enganei)",
        "it": r"\b(?:è|era)\s+sbagliat\w*|^\W{0,3}(?:correggo|correzione)\s*[:：]|\bho\s+sbagliato\b|"
        r"(?:lascia\s+perdere|ignora\s+(?:la|quella|questa)|annulla|mi\s+sono\s+sbagliat|"
        r"annullo\s+(?:quella|quello|questa|questo)\b|non\s+va\s+eseguit[ao]\b)",
        "ru": r"^\W{0,3}(?:стоп,?\s+)?(?:это|так)\s+(?:неверно|неправильно)\s*[.!,;:—–-]|^\W{0,3}(?:исправляю|"
        r"исправление)\s*[:：]|(?:игнорируй|(?<!не\s)забудь(?:те)?\s+(?:это|про)|отмен|я\s+ошиб|(?:(?:этот|тот|предыдущий|первый)\s+(?:блок|вызов)|(?:этот|тот)\s+(?!раз\b)\w+)\s+не\s+(?:считается|в\s+счёт|в\s+счет))",
        "zh": r"(?:这|这个|上面的?)(?:是)?错的|(?:这条|这个|上面(?:那|这)?条|刚才(?:那|这)?条)不对|^\W{0,3}更正[:：]|写错了|改正如下|(?:忽略|撤回|请无视|作废|弄错了)",
        "ja": r"(?:これ|上記|今の)は誤り|^\W{0,3}訂正[:：]|誤りでした|正しくは|(?:無視して|取り消|間違え)",
        "nl": r"^\W{0,3}(?:correctie|verbetering)\s*[:：]|^\W{0,3}(?:(?:wacht|oeps|hmm),?\s+)?dat\s+(?:klopt\s+niet|"
        r"was\s+verkeerd)\s*[.!,;:—–-]|(?:\bvergeet\s+(?:dat|dit|het\s+vorige|de\s+vorige|die)\b(?!\s+niet)|\bnegeer\b|"
        r"\bverkeerde\s+(?:blok|aanroep)|\b(?:aanroep|blok)\s+trek\s+ik\s+in\b|"
        r"\bdat\s+was\s+fout)",
        "sv": r"^\W{0,3}(?:rättelse|korrigering)\s*[:：]|^\W{0,3}det\s+(?:var|är)\s+fel\s*[.!,;:—–-]|"
        r"(?:\bglöm\s+(?:det|blocket|anropet|den)\b(?!\s+inte)|\bignorera\b|\bstrunta\s+i\b|\bfel\s+(?:block|"
        r"anrop)\b|"
        r"\bdet\s+blev\s+fel\b|\bjag\s+tar\s+tillbaka|\bstryk\s+(?:anropet|blocket|det)\b)",
        "da-nb": r"^\W{0,3}(?:rettelse|korrektion|korreksjon)\s*[:：]|^\W{0,3}det\s+var\s+(?:forkert|"
        r"feil)\s*[.!,;:—–-]|(?:\bglem\s+(?:det|blokken|kaldet|kallet)\b(?!\s+ikke)|\bignorer\b|\b(?:forkert|"
        r"feil)\s+(?:blok|blokk|kald|kall)\b|\bse\s+bort\s+fra\s+(?:det|blokken|kaldet|kallet)\b|"
        r"\bjeg\s+(?:tager|tar)\s+det\s+tilbake?)",
        "cs-pl": r"^\W{0,3}(?:oprava|korekta|poprawka)\s*[:：]|^\W{0,3}(?:chwila|moment|ups),?\s+to\s+(?:jest\s+)?błąd|"
        r"\bpowyższego\s+wywołania\s+nie\s+(?:uruchamiam|wykonuję)\b|^\W{0,3}to\s+(?:bylo|je|było|jest)\s+(?:špatně|źle|"
        r"błędnie)\s*[.!,;:—–-]|(?:\b(?:předchozí|ten|tamten|první)\s+(?:blok|příkaz|zápis|hod|volání)(?:\s+(?:výše|nahoře))?\s+"
        r"(?:neplatí|ruším|zahazuji|zahazuju)\b|"
        r"\bignoruj\w*|\bzapomeň(?:te)?\s+na\b|\bberu\s+(?:zpět|zpátky)\b|\bsplet\w*\s+jsem|\bto\s+je\s+špatně|\bzignoruj\w*|"
        r"\bzapomnij\s+o\b|\bpomyli\w*|\bto\s+był\s+błąd|\b(?:tamten|ten|poprzedni|pierwszy)\s+odrzucam\b|"
        r"\bpoprawn\w*\s+jest\s+(?:ten|ta|to)\s*[:：]|\bzahoď\b|\b(?:tady|tohle|toto)\s+je\s+(?:ten\s+)?správn\w*\s*[:：]|"
        # (the call named and not run: "Tego wywołania nie wykonuję.", "Chwila, nie — ...")
        r"\b(?:tego|tamtego|pierwszego|poprzedniego)\s+(?:wywołania|bloku|polecenia)\s+nie\s+(?:wykonuj\w*|uruchamiam|"
        r"licz\w*)|^\W{0,3}chwila,?\s+nie\b)",
        "uk": r"^\W{0,3}(?:виправлення|виправляю)\s*[:：]|^\W{0,3}це\s+(?:неправильно|помилка)\s*[.!,;:—–-]|"
        r"(?:ігноруй\w*|забудь(?:те)?\s+(?:це|про\s+(?:це|попередн)|(?:попередній|той|цей|перший)\s+(?:виклик|блок|запит))|я\s+помили\w*|не\s+враховуй\w*|"
        r"(?:цей|той|попередній|перший)\s+(?:виклик|блок)\s+скасов\w*|не\s+виконуй(?:те)?\s+(?:його|це|цей)|"
        r"^\W{0,3}(?:ой,?\s+)?ні,?\s+(?:вибач\w*\s*)?[—–-]?\s*це\s+помилка)",
        "fi-hu": r"^\W{0,3}(?:korjaus|javítás|helyesbítés)\s*[:：]|^\W{0,3}(?:tuo|se)\s+oli\s+väärin|"
        r"^\W{0,3}ez\s+(?:rossz|hibás)\s+volt|(?:\bunohda\s+(?:tuo|se|edellinen|äskeinen)|"
        r"\bohita\s+(?:tuo|se|edellinen)|\bjätä\s+(?:tuo|edellinen\s+)?"
        r"huomiotta|\bväärä\s+(?:lohko|kutsu)|\bfelejtsd\s+el|\bhagyd\s+figyelmen\s+kívül|\btévedtem\b|"
        # (the call above named, "Az előző hívást visszavonom"; not an offer, "Ha kell, visszavonom.")
        r"\b(?:az\s+előző|a\s+fenti)\s+\w+\s+visszavonom\b|\bne\s+(?:vegy(?:ük|ed)|vedd|vegye)\s+figyelembe\b|\brossz\s+\w+\s+írtam\b)",
        "ro-ca": r"^\W{0,3}(?:corectură|corecție|correcció)\s*[:：]|^\W{0,3}(?:asta|aceasta)\s+(?:e|"
        r"a\s+fost)\s+greșit|^\W{0,3}això\s+(?:està|era)\s+malament|(?:\bignoră\b|\buită\s+de\b|"
        r"\bam\s+greșit\b|\bgreșeala\s+mea\b|\boblida\b|\bignora\b|"
        r"\bm['’]he\s+equivocat|\bretrag\s+(?:asta|aceasta|apelul|blocul)\b|\banulez\s+(?:asta|aceasta|apelul|blocul)\b)",
        "tr": r"^\W{0,3}düzeltme\s*[:：]|^\W{0,3}(?:bu|o)\s+yanlış(?:tı|tı)?\s*[.!,;:—–-]|(?:yoksay|"
        r"görmezden\s+gel|dikkate\s+alma|doğrusu\s+(?:bu|şu)\s*[:：]|(?:bunu|onu|öncekini)\s+unut|hata\s+yaptım|yanlış\s+(?:oldu|blok|çağrı))",
        "el": r"^\W{0,3}διόρθωση\s*[:：]|^\W{0,3}αυτό\s+(?:ήταν|είναι)\s+λάθος|ακύρωσε\s+(?:αυτό|το)|(?:αγνόησε|αγνοήστε|ξέχνα\s+(?:το|"
        r"αυτό)|λάθος\s+μου|έκανα\s+λάθος)",
        "vi": r"^\W{0,3}(?:sửa\s+lại|đính\s+chính)\s*[:：]|^\W{0,3}(?:cái\s+)?(?:đó|này)\s+sai\s+rồi|"
        r"(?:bỏ\s+qua\s+(?:khối|lệnh|cái)|quên\s+(?:khối|lệnh|cái)\s+(?:đó|trên|vừa\s+rồi)|(?:mình|"
        r"tôi)\s+nhầm|"
        r"(?:khối|lệnh)\s+(?:trên|vừa\s+rồi)\s+sai|"
        r"bỏ\s+(?:lệnh|khối|cái)\s+(?:ở\s+)?(?:trên|đó|vừa\s+rồi)|không\s+dùng\s+(?:cái|lệnh|khối)\s+(?:đó|trên|này))",
        "id-ms": r"^\W{0,3}(?:koreksi|ralat|pembetulan)\s*[:：]|^\W{0,3}(?:itu|yang\s+tadi)\s+salah\s*[.!,;:—–-]|"
        r"(?:\babaikan\b|\blupakan\s+(?:yang|blok|itu)\b|\b(?:aku|saya)\s+keliru\b|\bsalah\s+(?:ketik|"
        r"blok)\b|\btarik\s+balik\b|\bbatalkan\s+(?:panggilan|arahan|blok|yang)\b|^\W{0,3}eh,?\s+silap\b)",
        "ar-fa": r"^\W{0,3}(?:تصحيح|اصلاح)\s*[:：]|^\W{0,3}(?:هذا|ذلك)\s+(?:خطأ|غير\s+صحيح)|^\W{0,3}(?:این|"
        r"آن)\s+(?:اشتباه|غلط)\s+(?:بود|است)|(?:تجاهل|انسَ\s+|انس\s+(?:ذلك|هذا)|خطأ\s+مني|أخطأت|"
        r"نادیده\s+بگیر|اشتباه\s+(?:کردم|شد))",
        "he": r"^\W{0,3}תיקון\s*[:：]|^\W{0,3}(?:זה|זו)\s+(?:היה\s+|הייתה\s+)?(?:שגוי|לא\s+נכון)|(?:התעלם|תתעלם|"
        r"שכח\s+מזה|טעות\s+שלי|טעיתי)",
        "hi-bn": r"(?:यह|ये)\s+(?:गलत|ग़लत)\s+(?:है|था)|(?:कॉल|ब्लॉक)\s+(?:गलत|ग़लत)\s+(?:थी|था)|"
        r"रद्द\s+(?:समझ|करें|कर\s+दें|कीजिए|मानिए|मानें|मान\s+लीजिए)|বাতিল\s+(?:করুন|ধরুন|"
        r"ধরো)|ভুল\s+(?:হয়েছে|ছিল)|(?:नज़रअंदाज़|नजरअंदाज|अनदेखा|गलती\s+हो\s+गई|ग़लती\s+हो\s+गई|উপেক্ষা|"
        r"ভুল\s+হয়েছে)",
        "th-ko": r"^\W{0,3}(?:แก้ไข|ขอแก้)\s*[:：]|อันนั้นผิด|^\W{0,3}(?:정정|수정)\s*[:：]|(?:방금|위의?)\s+(?:것|블록|"
        r"호출)은\s+잘못|(?:ไม่ต้องสนใจ|ไม่ต้องใช้คำสั่ง(?:ข้างบน|ด้านบน)|ละเว้น|무시해|무시하세요|무시하시고|(?:방금|위에서?)\s*쓴\s*(?:건|것은?)\s*취소|잘못\s+(?:입력|보냈|썼)|"
        r"ยกเลิก(?:อัน|คำสั่ง|บล็อก)?(?:บน|ข้างบน|ด้านบน|ที่แล้ว|เมื่อกี้|นั้น)|ไม่ต้องรัน)",
        "sw": r"^\W{0,3}marekebisho\s*[:：]|^\W{0,3}hiyo\s+(?:si\s+sahihi|ni\s+makosa)|(?:\bpuuza\b|\bnimekosea\b|"
        r"\busijali\s+(?:ile|hiyo|hii)(?:\s+ya\s+juu)?\b|\busizingatie\s+(?:amri|ombi|ile|hiyo)\b)",
        # A slip owned (misread, misheard, got it wrong) or the right one brought in its place
        # ("No, aspetta, ho letto male ... Ecco quella giusta:", "Nie, pomyłka ... Poprawna wersja:").
        "slip": r"\bI\s+(?:misread|misheard|got\s+(?:that|it)\s+wrong)\b|\b(?:the\s+)?(?:correct|right)\s+(?:one|version)\s*"
        r"(?:is\s*)?[:：]|\bdas\s+stimmt\s+(?:so\s+)?nicht\b|\b(?:verlesen|verhört|vertan)\b|^\W{0,3}stattdessen\s*[:：]|"
        r"\bstattdessen\s*[:：]\s*$|\bdie\s+richtige\s+(?:version|fassung)\b|\bho\s+(?:letto|capito|sentito)\s+male\b|"
        r"\becco\s+(?:quella|quello|la\s+versione)\s+(?:giust|corrett)\w*|\bversione\s+(?:giusta|corretta)\s*[:：]|"
        r"\b(?:leí|entendí|escuché)\s+mal\b|\bla\s+(?:versión\s+)?correcta\s*[:：]|\bj['’]ai\s+(?:mal\s+lu|mal\s+compris)\b|"
        r"\bla\s+bonne\s+(?:version|valeur)\s*[:：]|\b(?:li|entendi|ouvi)\s+errado\b|\ba\s+(?:versão\s+)?correta\s*[:：]|"
        r"\bverkeerd\s+(?:gelezen|begrepen|gehoord)\b|\bde\s+juiste\s+(?:versie\s*)?[:：]|\b(?:läste|hörde)\s+fel\b|"
        r"\bden\s+rätta\s*(?:versionen\s*)?[:：]|\b(?:læste|hørte)\s+forkert\b|\b(?:leste|hørte)\s+feil\b|"
        r"\bden\s+(?:rigtige|riktige)\s*(?:version|versjon)?\s*[:：]|\bpomyłka\b|\bźle\s+(?:przeczytał|zrozumiał|usłyszał)\w*|"
        r"\bpoprawna\s+wersja\b|\bšpatně\s+jsem\s+(?:četl|přečetl|slyšel|pochopil)\b|\bsprávná\s+verze\b|"
        r"неправильно\s+(?:прочитал|понял|расслышал)|правильный\s+вариант|неправильно\s+(?:прочитав|зрозумів)|"
        r"правильний\s+варіант|\bväärin\s+meni\b|\bluin\s+väärin\b|^\W{0,3}oikea\s+on\b|\brosszul\s+(?:olvastam|értettem|írtam|jegyeztem)\b|"
        r"\bam\s+citit\s+greșit\b|\bvarianta\s+corectă\b|\byanlış\s+(?:okudum|anladım|duydum)\b|\bdoğrusu\s*[:：]|"
        r"διάβασα\s+λάθος|\bđọc\s+nhầm\b|\bsalah\s+(?:baca|dengar|faham|paham)\b|\b(?:maaf|sori),?\s+silap\b|"
        r"^\W{0,3}yang\s+(?:betul|benar)\s*(?:ialah|adalah)?\s*[:：]|קראתי\s+לא\s+נכון|הנכון\s*[:：]|"
        r"أخطأت\s+في\s+القراءة|غلط\s+خواندم|गलत\s+पढ़|ভুল\s+পড়েছি|(?:我|是我)?(?:记错了|看错了|听错了)|"
        r"^\W{0,3}不对[，,]|改成这个|正确的(?:是|应该是)|読み間違え|聞き間違え|正しいのは(?:こちら|これ)|"
        r"잘못\s*(?:읽었|봤|들었)|맞는\s*(?:건|것은)\s*이거|อ่านผิด|nimesoma\s+vibaya",
        # Taking a call back in further words of several languages.
        "several": r"(?:aufruf|block|befehl|eintrag)\w*\s+(?:ziehe|nehme)\s+ich\s+zurück|\b(?:ziehe|nehme)\s+ich\s+"
        r"(?:den|diesen)\s+(?:aufruf|block|befehl|eintrag)\s+zurück|"
        r"(?:호출|블록|요청|명령|이거|이건|그건)[은는을를]?\s*(?:취소|철회)|잘못\s+(?:적었|적어|넣었)|"
        r"\b(?:ezt|azt|a\s+hívást|a\s+blokkot)\s+visszavon(?:om|tam|juk)\b|(?:را|رو)\s+پس\s+می[\u200c ]?گیرم|جابه[\u200c ]?جا\s+نوشتم|"
        r"\brút\s+lại\s+(?:lệnh|khối|cái|yêu\s+cầu)|\b(?:ghi|viết)\s+nhầm\b|"
        r"\bI\s+take\s+(?:that|this|it)\s+back\b|\b(?:scratch|scrap)\s+that\b|\bretract(?:ing)?\s+(?:that|this|it)\b|"
        r"\b(?:retiro|anulo)\s+(?:esa|esta|ese|este)\s+(?:llamada|bloque)|\b(?:j['’]annule|je\s+retire)\s+"
        r"(?:cet|ce|cette)\s+(?:appel|bloc)|\b(?:ritiro|annullo)\s+(?:questa|quella)\s+(?:chiamata|richiesta)|"
        r"\b(?:retiro|cancelo|anulo)\s+(?:essa|esta)\s+(?:chamada|ordem)|(?:отменяю|отзываю)\s+(?:этот|тот|"
        r"предыдущий)\s+(?:вызов|блок|запрос)|(?:скасовую|відкликаю)\s+(?:цей|той|попередній)\s+(?:виклик|блок|запит)|"
        r"\bcofam\s+(?:to|ten)\b|\bodwołuję\b|\bruším\s+(?:to|ten|tento)\s+(?:volání|blok)|"
        # (the step taken back named with where it stands: "Vergeet de aanroep hierboven", "Скасовую дію вище")
        r"\bvergeet\s+(?:de|die)\s+(?:aanroep|oproep|actie|blok)\b(?!\s+niet)|"
        r"(?:скасовую|відкликаю)\s+(?:цю\s+|ту\s+)?(?:дію|виклик|запит|блок)(?:\s+(?:вище|зверху))?(?!\w)",
    },
}


def _compile(table: dict[ProblemKind, dict[str, str]]) -> list[tuple[ProblemKind, Words]]:
    # A line holds a kind's words when any language's pattern matches; each pattern's
    # alternatives are searched only where one of their literals occurs (see literals.py).
    return [(kind, Words(rows.values(), regex.IGNORECASE | regex.MULTILINE)) for kind, rows in table.items()]


_BEFORE = _compile(BEFORE)
_AFTER = _compile(AFTER)
# A line is read once for the literals of all kinds of a table (see literals.Table).
_BEFORE_TABLE = Table(_BEFORE)
_AFTER_TABLE = Table(_AFTER)
_WHY_BEFORE: dict[ProblemKind, str] = {
    "example": "the line before it introduces it as an illustration",
    "quoted": "the line before it presents it as something sent or done earlier",
    "proposed": "the line before it offers it as a draft, an option or a step that depends on a result",
}
_WHY_AFTER: dict[ProblemKind, str] = {
    "proposed": "the line after it asks for permission or makes it depend on a result",
    "example": "the line after it says it was only shown",
    "retracted": "the line after it retracts it",
}


# "For instance" as an adverb, in the languages both patterns below read it in
_FOR_EXAMPLE = (
    r"for\s+(?:example|instance)|e\.\s?g\.|por\s+ejemplo|par\s+exemple|zum\s+beispiel|z\.\s?b\.|"
    r"ad\s+esempio|per\s+esempio|por\s+exemplo|например|bijvoorbeeld|na\s+przykład"
)
# A sentence that opens with "for instance" and goes on past its comma into the block
_EXAMPLE_COMMA = regex.compile(r"[\W_]{0,3}(?:" + _FOR_EXAMPLE + r")[ \t]*,[ \t*_]*$", regex.IGNORECASE)


def quote_words(words: str) -> str:
    """Words next to a block as a note to the model quotes them: on one line, at most 60 characters."""
    words = " ".join(words.split())
    return words if len(words) <= 60 else words[:57] + "..."


# A sentence that closes on how the block would look were the writer to make it: a condition on
# the writer's own step, then a word pointing on at the block ("If I were to note it, it would
# look like this.", "Wenn ich das notieren würde, sähe es so aus.", "メモしておくならこうなります。").
# It ends its sentence, yet what it points on at is what would be made, not what is.
_WOULD_LOOK = regex.compile(
    r"\b(?:if\s+I\s+(?:were|was)\s+to|were\s+I\s+to)\b[^.!?]*\b(?:would|I['’]d|it['’]d)\b[^.!?]*"
    r"\b(?:like\s+this|this\s+way|as\s+follows|this)\s*\.$|"
    r"\bwenn\s+ich\b[^.!?]*\bwürde\b[^.!?]*\b(?:so\s+aus|folgendermaßen\s+aus|so)\s*\.$|"
    r"\bsi\s+(?:je\s+|j['’])[^.!?]*\b(?:ce\s+serait|ça\s+donnerait|cela\s+donnerait)\b[^.!?]*\.$|"
    r"\bse\s+eu\s+fosse\b[^.!?]*\b(?:assim|isto|isso)\s*\.$|"
    r"\bsi\s+(?:lo|la)\s+\w+(?:ra|se)\b[^.!?]*\b(?:así|esto)\s*\.$|"
    r"(?:なら|としたら|とすれば)[、,]?[^。\n]{0,20}?(?:こう|このように|このような\S{0,8}?に|こんな(?:感じ|ふう)に?)(?:なります|です|なる)?[。]$",
    regex.IGNORECASE,
)
# (the condition's opening words, looked for first as they are written, in either case of their
# first letter: most lines before a block hold none)
_WOULD_LOOK_GATES = (
    "f I ",
    "ere I ",
    "enn ich ",
    "i je ",
    "i j'",
    "i j’",
    "e eu ",
    "i lo ",
    "i la ",
    "なら",
    "としたら",
    "とすれば",
)


# "For example" inside the lead, not only at its start or before its colon, in a clause whose
# verb is in the conditional ("Une entrée ressemblerait, par exemple, à ceci :", "Einen Eintrag
# könnte man zum Beispiel so schreiben:"): the lead says how a block would be written, and the
# block is that example. Without the conditional the writer may be naming one of the things it
# keeps ("Ich speichere zum Beispiel deinen Geburtstag:").
_EXAMPLE_INSIDE = regex.compile(
    r"(?<!\w)(?:" + _FOR_EXAMPLE + r"|beispielsweise|наприклад|till\s+exempel|for\s+eksempel|til\s+eksempel|"
    r"například|esimerkiksi|örneğin)(?!\w)",
    regex.IGNORECASE,
)
# The conditional, by its auxiliaries and its endings
_CONDITIONAL = regex.compile(
    r"(?<!\w)(?:would|could|might|I['’]d|it['’]d|würden?|könnten?|sähen?|wären?|zou|zouden|skulle|ville|бы|by|"
    r"\p{L}{2,}(?:rais|rait|rions|riez|raient)|\p{L}{2,}(?:ría|rías|ríamos|rían)|\p{L}{2,}(?:ria|riam)|"
    r"\p{L}{2,}(?:rebbe|rebbero)|\p{L}{2,}(?:łby|łaby|łoby|liby|łyby))(?!\w)",
    regex.IGNORECASE,
)


def _example_in_conditional(clause: str) -> bool:
    """Whether the lead's last clause holds "for example" and a verb in the conditional (see
    :data:`_EXAMPLE_INSIDE`)."""
    if _EXAMPLE_INSIDE.search(clause) is None:
        return False
    for found in _CONDITIONAL.finditer(clause):
        # (a conditional in a clause of reason or condition is the reader's wish, not how the
        # block would look: "Comme tu voudrais, par exemple, un rappel, je l'enregistre :")
        opened = clause[: found.start()]
        opened = opened[max(opened.rfind(","), opened.rfind(";")) + 1 :]
        if _SUBORDINATE.search(opened) is None:
            return True
    return False


_SUBORDINATE = regex.compile(
    r"(?<!\w)(?:if|as|since|because|when|that|si|comme|que|qu['’]|quand|puisque|wenn|da|weil|dass|ob|como|cuando|"
    r"porque|se|quando|perché|poiché|als|omdat|dat|om|hvis|jeśli|если)(?!\w)",
    regex.IGNORECASE,
)


# A condition that closes a lead, from its "if" to the colon, in no further clause of its own
_TRAILING_IF = regex.compile(
    r"(?:[,，][ \t]*|[ \t]+)(?:if|hvis|om|wenn|falls|si|se|als|jeśli|jeżeli|если|якщо|dacă|jos|pokud|eğer)[ \t]+"
    r"[^,，.!?:：;\n]{2,80}[:：][ \t*_]*$",
    regex.IGNORECASE,
)


def _would_look(sentence: str) -> bool:
    """Whether ``sentence``, the line before a block, closes on how the block would look were the
    writer to make it (:data:`_WOULD_LOOK`)."""
    line = sentence[:LINE_CHARS]
    return any(gate in line for gate in _WOULD_LOOK_GATES) and _WOULD_LOOK.search(line.rstrip()) is not None


# A check mark that reports a step done ("## Saved ✅", "✔ Noted:")
_CHECK_MARKS = ("✅", "✔", "☑", "✓")
# What a heading's text is read without: its marks, its emphasis and the check mark beside it.
_HEADING_TRIM = " \t#*_:：.!。！" + "".join(_CHECK_MARKS) + "\ufe0f"


def _done_heading(line: str) -> bool:
    """Whether the heading ``line`` reports the step done ("## Anotado ✅", "### ✔ Saved", "## I've
    noted it"): such a heading says what was just done, it titles no illustration."""
    text = line[:LINE_CHARS].strip(_HEADING_TRIM)
    if not text or HEADING_EXAMPLE.search(line) is not None:
        return False
    return (
        DONE.match(text + ". ") is not None
        or reports_done(text)
        or (
            # beside a check mark, a done word that opens the heading ("✔ Saved to memory")
            any(mark in line for mark in _CHECK_MARKS) and DONE.match(text.split(None, 1)[0] + ". ") is not None
        )
        or _checked_title(line, text)
        or _step_heading(text)
    )


def _heading_presents(line: str) -> bool:
    """Whether a heading right above a block presents it as something shown: by an example's,
    a format's or a how-to's words ("## Example call", "### Call format", "## How a search is
    written"), a tool's name in code, or the words that present a block in a lead ("## Draft").
    A heading of the step or of the topic alone ("### Saving it", "## Сохраняю план", "### 保存",
    "## Your budget") titles the section the writer's own step stands in. A setext underline,
    whose title stands a line further up, is read as presenting."""
    text = line[:LINE_CHARS].strip()
    return not text.startswith("#") or _title_presents(text)


def _title_presents(title: str) -> bool:
    """Whether a title presents the block below it (see :func:`_heading_presents`), read without
    its marks and emphasis."""
    text = title[:LINE_CHARS].strip(_HEADING_TRIM)
    return (
        HEADING_EXAMPLE.search(text) is not None
        or _EXAMPLE_NOUN.search(text) is not None
        or _HOW_TO.search(text) is not None
        or _SAMPLE_WORDS.search(text) is not None
        or "`" in text
        or _BEFORE_TABLE.first(text + ":") is not None
    )


# A title alone on its line, wholly in bold or in lenticular brackets
_TITLE_LINE = regex.compile(
    r"[ \t]{0,3}(?:【(?P<title>[^】\n]{1,40})】|(?:\*\*|__)(?P<title>[^*_\n]{1,60})(?:\*\*|__))[ \t]*[:：]?[ \t]*$"
)
# A sample's or a pattern's noun in a title ("## Llamada de muestra", "## Vorlage", "### Шаблон"),
# beside the example's nouns of :data:`_EXAMPLE_NOUN` and :data:`HEADING_EXAMPLE`
_SAMPLE_WORDS = regex.compile(
    r"(?<!\w)(?:muestra|amostra|modelo|modèle|modello|vorlage|plantilla|шаблон|образец|зразок|mẫu|ukázk\w*|"
    r"דוגמ\w*|مثال|نمونه|उदाहरण|উদাহরণ|ตัวอย่าง|mfano)(?!\w)|見本|范例|範例|样例|예제",
    regex.IGNORECASE,
)
# The words of a how-to title ("How to save a note", "Cómo se guarda", "So rufst du ... auf")
_HOW_TO = regex.compile(
    r"(?<!\w)(?:how|cómo|como|comment|wie|come|как|jak|hoe|hur|hvordan|miten|nasıl|cara|bagaimana|cách|"
    r"usage|uso|utilisation|verwendung|utilizzo|использование)(?!\w)|如何|怎么|怎样|用法|方法|やり方|書き方|使い方|"
    r"방법|사용법",
    regex.IGNORECASE,
)


def _step_heading(text: str) -> bool:
    """Whether a heading names the writer's own step now ("## মনে রাখার জন্য সেভ করছি", "## I'm
    saving this", "## Ich werde das speichern"): it titles the step the block takes."""
    if _HEDGED.search(text) is not None or _HEDGED_INTL.search(text) is not None or _ASK_MARK(text) is not None:
        return False
    if _PRESENTS_STEP.search(text) is not None:
        return False
    # (by its person: a subject or a verb's ending; a verb alone, "## Saving it", "### Lưu lại", may
    # title a section of how-to as well, and keeps the block shown)
    return _MY_STEP_NOW.search(text) is not None or _MY_VERB_LAST.search(text.rstrip(" \t.!") + ":") is not None


_CHECKED_WORDS = 2


def _checked_title(line: str, text: str) -> bool:
    """Whether the heading is a title of a word or two with a check mark beside it ("## Notes ✅",
    "### Memoria ✔️"): the mark reports the step done; a label that names one of several options
    ("## Option A ✅", "## 2 ✅") marks a choice, and "## Draft ✅" a draft, not a step."""
    if not any(mark in line for mark in _CHECK_MARKS):
        return False
    words = text.split()
    if not words or len(words) > _CHECKED_WORDS:
        return False
    if ITEM_OR_OPTION.match(text) is not None or any(len(word) == 1 or word.isdigit() for word in words):
        return False
    # (nor a title that names a draft, a proposal or anything else a line after a block could hold back)
    return not _LINE_GATES.held(text.lower())


# A quantifier that opens a clause of its own ("all saved", "both stored", "alles notiert")
_ALL = regex.compile(
    r"[ \t]*(?:all(?:\s+of\s+them)?|both|everything|all\s+three|alle[s]?|beide|todo|todos|todas|ambos|ambas|tout|"
    r"tous|toutes|les\s+deux|tudo|tutto|tutti|entrambi|все|всё|обе|оба|alles|allemaal|allebei|allt|alla|båda|alt|"
    r"begge|kaikki|wszystko|oba|obie|hepsi|semua|keduanya|tất\s+cả|"
    # or the word for already ("ya guardado", "schon notiert")
    r"already|ya|já|déjà|schon|bereits|già|уже|вже|al|redan|allerede|jo|już|sudah)(?!\w)[ \t]*",
    regex.IGNORECASE,
)
_CLAUSE_MARK = regex.compile(r"(?r)[,，;；—–]")


def _done_clause(sentence: str) -> bool:
    """Whether the last clause of a lead that names what the reader sent reports the block kept
    ("Three things from your message, all saved:", "Was du geschickt hast — alles notiert:"):
    whatever it says of the message, its own last clause is the writer's done report."""
    found = _CLAUSE_MARK.search(sentence[:LINE_CHARS])
    if found is None:
        return False
    clause = sentence[found.end() : LINE_CHARS].rstrip(" \t*_:：…")
    quantifier = _ALL.match(clause)
    word = clause[quantifier.end() :] if quantifier is not None else clause.strip()
    return bool(word) and (DONE.match(word + ". ") is not None or reports_done(word))


# "The following format" in the tables' languages
_FOLLOWING_FORM = regex.compile(
    r"(?:following|this)\s+(?:format|form|syntax)|(?:folgende[nm]?|diese[nm]?)\s+(?:Format|Form|Syntax)|"
    r"(?:el\s+)?(?:formato|forma)\s+(?:siguiente|seguinte|seguente)|(?:format|forme)\s+suivante?|"
    r"следующ\w+\s+(?:формат|вид)\w*|以下の(?:形式|書式)|次の(?:形式|書式)|(?:如下|以下|下面的?)格式|다음(?:과\s+같은)?\s*형식",
    regex.IGNORECASE,
)


# Text one of which every match of _FOLLOWING_FORM holds (most lines hold none, and are not searched)
_FORM_GATES = ("orm", "ORM", "yntax", "ормат", "вид", "形式", "書式", "格式", "형식")


# "Like this" or "as follows" in Japanese after a condition in the same sentence
_FORWARD_IF_JA = regex.compile(
    r"(?:たら|れば|なら|次第で|しだいで)[^。]*?(?:こう|次のように|以下のように)(?=\p{Han}|\p{Hiragana})"
)


def _names_following_form(sentence: str) -> bool:
    return any(gate in sentence for gate in _FORM_GATES) and _FOLLOWING_FORM.search(sentence) is not None


def _stops_on_like(sentence: str) -> bool:
    """Whether ``sentence`` stops on a word of :data:`RUN_ON_ENDINGS`: it has not ended."""
    end = sentence.rstrip(" \t*_")
    if not end[-1:].isalpha():
        return False
    if end.endswith(RUN_ON_ENDINGS_UNSPACED):
        return True
    m = _LAST_WORD.search(end)
    return m is not None and m.group().lower() in RUN_ON_ENDINGS


def shown_before(ctx: Context, *, json_only: bool = False) -> Shown | None:
    """Why the structure around the opener, or the line directly before the block, makes it
    something shown; None when it was performed. JSON with no marker around it
    (``json_only``) also continues a list item or a broken code block on the line before."""
    head = ctx.line_head
    continuing = json_only and ctx.before and not ctx.gap and not head.strip()
    if continuing and (LIST_ITEM.match(ctx.before) or "```" in ctx.before or "~~~" in ctx.before):
        return Shown("example", "it continues a list item or a code block")
    if head:  # (none of these patterns matches an empty head: a block that opens its line)
        if BLOCKQUOTE.match(head):
            return Shown("quoted", "it is in a blockquote")
        if SPEAKER.match(head):
            return Shown("quoted", "it follows a speaker's name, as in a recited transcript")
        if TABLE_ROW.match(head):
            return Shown("example", "it is in a table cell")
        if head.strip() and opens_quote(head):
            return Shown("quoted", "it stands inside a quotation opened before it on its line")
        if ITEM_OR_OPTION.match(head):
            return Shown("example", "it is a list item or one of several alternatives")
    if not ctx.region_on_line and ctx.line_last and (ctx.line_last.isalnum() or ctx.line_last in _SENTENCE_CHARS):
        return Shown("in_sentence", "it is part of a sentence")
    if ctx.in_element:
        return Shown("example", "it is inside a <details>, <pre> or <code> element")
    if ctx.heading_above and not _done_heading(ctx.before) and _heading_presents(ctx.before):
        return Shown("example", "a heading stands directly above it")
    if ctx.section_example:
        return Shown("example", "it is under an example heading")
    if (title := _TITLE_LINE.match(ctx.before)) is not None:
        # a title set apart by bold or by lenticular brackets, alone on its line ("**Example
        # call**", "【工具调用格式】"), is a heading as one with marks is, and judged as one
        text = title.group("title")
        if not _done_heading(text) and _title_presents(text):
            return Shown("example", "a title stands directly above it", quote_words(ctx.before))
    before = ctx.before
    if not before:
        return None
    if QUOTE_ONLY.match(before):
        return Shown("quoted", "it stands between quotation marks")
    if not ctx.gap and LIST_ITEM.match(before) and head and not head.strip():
        return Shown("example", "it is indented under a list item")
    if not ctx.gap and (TABLE_ROW.match(before) or BLOCKQUOTE.match(before)) and json_only:
        return Shown("example", "it continues a table or a quote")
    if _item_or_label(before) and before.rstrip(" \t*_").endswith((":", "：") if ctx.gap else (":", "：", ")")):
        return Shown("example", "it belongs to a list item or an alternative introduced on the line before", before)
    if LETTER_ITEM.match(before):
        return Shown("example", "it is an alternative labelled with a letter on the line before", quote_words(before))
    # (a blank line between the item and its block changes nothing: the item still labels it)
    if ctx.intro and LIST_ITEM.match(before) and ALTERNATIVES_INTRO.search(last_sentence(ctx.intro)):
        return Shown("proposed", ALTERNATIVE, quote_words(ctx.intro))
    if opens_quote(before):
        return Shown("quoted", "it stands inside a quotation opened on the line before")
    if OPTION_LABEL.match(before):
        return Shown("example", "it is an alternative labelled on the line before", quote_words(before))
    if not ctx.gap and len(before) <= _OR_ALONE_CHARS and OR_ALONE.match(before):
        return Shown("proposed", "the line before it offers it as another choice", quote_words(before))
    sentence = _unlinked(last_sentence(before))
    if "**" in sentence:
        sentence = sentence.replace("**", "")  # (emphasis on the lead's words: "Пока **не отправлял**:")
    if sentence.endswith(_QUOTED_COLON):
        # a quoted lead that closes right after its colon ("... prefix. For instance:\"") leads
        # into the block as it would unquoted
        sentence = sentence.rstrip(_CLOSING_QUOTES + " \t")
    if _may_hold_back(sentence) and HELD_BACK.search(_after_last(_CONSEQUENCE, sentence[:LINE_CHARS])):
        return Shown("proposed", _WHY_BEFORE["proposed"], quote_words(sentence))
    if _EXAMPLE_COMMA.match(sentence):
        return Shown("example", _WHY_BEFORE["example"], quote_words(sentence))
    if sentence.endswith("。") and _FORWARD_IF_JA.search(sentence[-LINE_CHARS:]) is not None:
        # A plan on a condition that points at what follows ("日付が見つかったら、その結果しだいで次に
        # こう記録する予定です。") leads into the block as a colon would
        sentence = sentence[:-1] + "："
    elif sentence.endswith((".", "。")) and _names_following_form(sentence[-LINE_CHARS:]):
        # A sentence that names the format to follow ends on what follows it, whatever its stop
        # ("To use a tool, write it in the following format.", "다음 형식으로 작성하세요.")
        sentence = sentence[:-1] + ":"
    if sentence.rstrip().endswith((".", "。")) and _would_look(sentence):
        return Shown("example", _WHY_BEFORE["example"], quote_words(sentence))
    if (
        _stops_on_like(sentence) or (not ctx.gap and sentence[-1:].isalpha() and _CONDITION.match(sentence) is not None)
    ) and not LIST_ITEM.match(before):
        # A sentence of prose (no list item's line) that stops on "like" or "with", or one that
        # opens with a condition and stops on a word right above the block, runs on into the
        # block, whose lead it is as if a colon closed it ("..., lo siguiente sería mirar con algo
        # como", "..., etwa mit", "... чем-то вроде", "その場合はたとえば", "Om den inte hittar
        # något tar jag sedan")
        sentence += ":"
    elif not opens_onto_next(sentence):
        # A line that ends its own sentence introduces nothing, unless it says the writer has not
        # made the step yet ("I've prepared this change, but I haven't applied it yet."): the
        # block right under it is that step, held back.
        if _held_not_yet(sentence):
            return Shown("proposed", _WHY_BEFORE["proposed"], quote_words(sentence))
        return None
    if _ON_READERS_WORD.search(sentence) is not None and not reports_done(sentence) and DONE.match(sentence) is None:
        return Shown("proposed", _WHY_BEFORE["proposed"], quote_words(sentence))
    kind = _BEFORE_TABLE.first(sentence if sentence.isascii() else sentence.translate(_HARAKAT))
    if kind is None and (condition := _TRAILING_IF.search(sentence[-LINE_CHARS:])) is not None:
        # A condition closing the lead after what would show ("This is what a call would look like
        # if I were to save it:", "Sådan ville et kald se ud, hvis jeg skulle gemme den:"): the
        # clause before it presents the block, as it would if it ended there
        main = sentence[-LINE_CHARS:][: condition.start()]
        if _BEFORE_TABLE.first(main + ":") == "example":
            kind = "example"
    if kind is None and (named := _QUOTED_END.search(sentence)) is not None and _OFFERED.search(sentence) is not None:
        # a quotation that closes a lead in the conditional names the format or the words the
        # writer would use, and the lead is read as if it named them plainly ("Podría guardarlo
        # con el formato «Cumpleaños: fecha»:"); one that reports or makes the step keeps it
        kind = _BEFORE_TABLE.first(sentence[: named.start()] + " X:")
    if kind is None and _example_in_conditional(last_clause(sentence)):
        kind = "example"
    if kind == "example" and _corrects(before, sentence):
        return None
    if kind in ("example", "proposed"):
        # An example's or a draft's words in a clause before a semicolon speak of something
        # else ("keep a list, for example on your phone;", "your speech draft is done; filing
        # it:"); only the last clause can present the block as one. So does a clause that a
        # consequence opens ("Die Einladung ist noch nicht verschickt, also notiere ich mir das:"):
        # what was not done is its reason, not the block.
        clause = last_clause(sentence)
        if kind == "proposed" and clause == sentence and not _on_result(sentence):
            # (after a condition on what a step finds, the word is its "then", and what follows
            # still waits on that: "Se não encontrar, então procuro no arquivo:")
            clause = _after_last(_CONSEQUENCE, sentence)
        if kind == "proposed" and clause == sentence and (rest := _THE_REST.search(sentence)) is not None:
            # an offer made for the rest, in a clause of its own after what the block does ("Only
            # the plot needs saving, the rest can go in the archive later if you want:")
            clause = sentence[: rest.start()] + ":"
        if kind == "proposed" and clause == sentence and (why := _REASON_CLAUSE.search(sentence)) is not None:
            # the writer's wish or conditional in a clause of reason after its own step ("And I'll
            # keep a note about the move, since it's a big change and I'd like to remember it:"):
            # the step presents the block, the reason hedges nothing
            head = sentence[: why.start()]
            if (
                _my_step_at(head, head) is not None
                and _HEDGED.search(head) is None
                # (not a condition after it, which still holds the step: "..., since you asked, if you agree:")
                and _CONDITION.search(sentence, why.end()) is None
            ):
                clause = head + ":"
        if kind == "proposed" and clause == sentence and (later := _LATER_CLAUSE.search(sentence)) is not None:
            # the same for an offer of a later step in a clause of its own ("Saving the new number
            # now, and we can tidy the old notes later if you like:")
            clause = sentence[: later.start()] + ":"
        if (
            kind == "proposed"
            and clause == sentence
            and _CONDITION.match(sentence) is None
            and (turn := _after_last(_CONTRAST, sentence)) != sentence
        ):
            # an offer turned down by a clause of the writer's own after a contrast ("I could also
            # set up a checklist if you like, but for now I'll just keep the date:"): that clause
            # presents the block; not a "but" within a condition that opens the sentence ("If the
            # list is there but lacks the card, I'll add it:"), which the whole sentence still waits on
            clause = turn
        if clause != sentence:
            kind = _BEFORE_TABLE.first(clause) if opens_onto_next(clause) else None
        if kind == "proposed" and _slip_told(clause):
            kind = None
    elif kind == "quoted" and (
        _KEEPING_WHAT_SENT.search(sentence) is not None
        or _done_clause(sentence)
        or _sent_as_reason(sentence)
        or _acts_on_what_sent(sentence)
        or _SENT_THEN_MINE.search(sentence) is not None
    ):
        return None
    elif kind == "quoted" and (then := _QUOTED_THEN.search(sentence)) is not None:
        # (unless that clause itself presents the block as sent: "... — the call you sent:")
        own = then.group("own")
        return Shown(kind, _WHY_BEFORE[kind], quote_words(sentence)) if _BEFORE_TABLE.first(own) == "quoted" else None
    if kind == "example" and (turn := _after_last(_CONTRAST, sentence)) != sentence:
        # An example's or a format's words in a clause that a contrast follows speak of something
        # else ("Coisas como o formato da data confundem, mas percebi, guardei:"): only the clause
        # after the last "but" can present the block as one.
        kind = _BEFORE_TABLE.first(turn) if opens_onto_next(turn) else None
        if kind is None:
            return None
    if (
        (kind == "example" or (kind == "quoted" and _SENT_ON_NOUN.search(sentence) is not None))
        and (turn := _after_last(_CONSEQUENCE, sentence)) != sentence
        and (
            _my_step_at(own := _after_consequence(turn), own) is not None
            or _MY_VERB_LAST.search(own[-LINE_CHARS:]) is not None
        )
    ):
        # The same for a clause of consequence that names the writer's own step ("... whatever
        # example made it click for you then, so let me find that conversation:", "You tagged
        # each one when you sent it to me, so I'm searching for both tags:"): the example's or
        # the thing sent's words are the reason, the clause after "so" presents the block; not a
        # recited turn's, whose "so" tells what was done then: "**Me (yesterday):** Nothing, so
        # I tried:")
        kind = _BEFORE_TABLE.first(turn)
        if kind is None:
            return None
    if kind == "example" and (_made_so(last_clause(sentence)) or _THEREFORE_ONLY.search(sentence) is not None):
        return None
    if kind == "example" and (_saved_in_format(sentence) or _step_so(sentence) or _for_a_purpose(sentence)):
        return None
    if (
        kind == "example"
        and (real := _REAL_ONE.search(sentence)) is not None
        and _BEFORE_TABLE.first(sentence[real.start() :]) is None
    ):
        # an example's words before the clause that calls the block the real thing ("For
        # example, with a 72,000 balance at 4.25%, here's the actual number:")
        return None
    return None if kind is None else Shown(kind, _WHY_BEFORE[kind], quote_words(sentence))


# The manner word that closes a lead of the writer's own step ("I'll note it down as follows:",
# "Ich dokumentiere den Versand wie folgt:", "Das speichere ich mir so ab:")
_SO_END = regex.compile(
    r"(?<!\w)(?:as\s+follows|like\s+(?:this|so)|this\s+way|wie\s+folgt|folgendermaßen|so(?:\s+(?:ab|ein|fest|an|auf))?|"
    r"comme\s+(?:suit|ceci)|ainsi|así|de\s+esta\s+(?:forma|manera)|assim|desta\s+forma|così|come\s+segue|"
    r"(?:вот\s+)?так|следующим\s+образом|als\s+volgt|zo)[ \t*_]*[:：][ \t*_]*$",
    regex.IGNORECASE,
)


# The writer's step told as not taken yet, in the perfect, with "yet" ("I haven't applied it yet",
# "todavía no lo he aplicado", "ainda não salvei", "je ne l'ai pas encore enregistré")
_NOT_DONE_YET = regex.compile(
    r"(?<!\w)(?:(?:I\s+)?(?:haven['’]t|have\s+not)\s+(?:\w+\s+)?(?:applied|saved|sent|run|stored|made)\s+"
    r"(?:it|this|that|them|the\s+\w+)?\s*yet|not\s+(?:applied|saved|sent)\s+yet|"
    r"(?:todavía|aún)\s+no\s+(?:lo\s+|la\s+|los\s+|las\s+)?(?:he\s+)?(?:aplicado|guardado|enviado|ejecutado|aplico|guardo|envío)|"
    r"ainda\s+não\s+(?:o\s+|a\s+)?(?:apliquei|salvei|enviei|guardei|aplico|salvo|envio)|"
    r"je\s+ne\s+(?:l['’]ai|les\s+ai)\s+pas\s+encore\s+(?:appliqué|enregistré|envoyé|sauvegardé)|"
    r"non\s+(?:l['’]ho|li\s+ho|le\s+ho)\s+ancora\s+(?:applicat|salvat|inviat|eseguit)\w*|"
    r"(?:habe\s+(?:es|das|ihn|sie)\s+)?noch\s+nicht\s+(?:angewendet|gespeichert|gesendet|abgeschickt|übernommen))(?!\w)",
    regex.IGNORECASE,
)


def _held_not_yet(sentence: str) -> bool:
    """Whether ``sentence`` tells the writer's step not taken yet (see :data:`_NOT_DONE_YET`) and
    no clause after that takes it now ("I haven't saved it yet, so I'm saving it now." makes it)."""
    found = _NOT_DONE_YET.search(sentence)
    if found is None:
        return False
    rest = sentence[found.end() :]
    return _MY_STEP_NOW.search(rest) is None and _NOW_WORDS.search(rest) is None


_NOW_WORDS = regex.compile(r"(?<!\w)(?:now|ahora|agora|maintenant|ora|jetzt)(?!\w)", regex.IGNORECASE)


_CLOSING_QUOTES = "\"”»」』'’"
_QUOTED_COLON = tuple(c + q for c in ":：" for q in _CLOSING_QUOTES)


def _step_so(sentence: str) -> bool:
    """Whether the lead names the writer's own step now or next, in the indicative, and says only
    how it takes it ("I'll note it down as follows:", "Das speichere ich mir so ab:"): the block is
    the step, as "I have recorded it as follows:" reports one taken. A hedge, a condition, a
    question, a negation, a step of showing or an example's noun elsewhere keeps it shown, and
    so does a check under the block that asks the reader (judged after it)."""
    end = _SO_END.search(sentence)
    if end is None or _ASK_MARK(sentence) is not None or _PRESENTS_STEP.search(sentence) is not None:
        return False
    head = sentence[: end.start()]
    if _EXAMPLE_NOUN.search(head) is not None or _CONDITION.match(head) is not None or _BEFORE_TABLE.first(head + ":"):
        return False
    # ("I'll do it like this:", "Ich mache es so:" name no step of their own: a way is shown)
    return _plain_step(head, sentence) and _DO_ONLY.search(head) is None


_DO_ONLY = regex.compile(
    r"(?<!\w)(?:do|doing|make|making|mache|machen|fais|ferai|faire|hago|haré|hacer|faço|farei|fazer|faccio|farò|"
    r"fare|делаю|сделаю|doe|gör|gjør|gør)(?!\w)",
    regex.IGNORECASE,
)


# A clause of purpose after the step ("..., damit das Format in Zukunft passt:", "so that the format
# stays the same:"): its words are the step's reason, and only the step before it presents the block.
# (Not Italian "perché", as often "because", whose clause may well present it: "perché il formato è:")
_PURPOSE = regex.compile(
    r"[,，]?[ \t]*(?<!\w)(?:so\s+that|so(?=\s+(?:when|next\s+time)\b)|così(?=\s+(?:quando|che|la\s+prossima)\b)|"
    r"damit|sodass|so\s+dass|para\s+que|pour\s+que|afin\s+que|affinché|"
    r"чтобы|zodat|så\s+att|aby|żeby)(?!\w)",
    regex.IGNORECASE,
)


def _for_a_purpose(sentence: str) -> bool:
    found = _PURPOSE.search(sentence)
    if found is None or found.start() == 0 or _ASK_MARK(sentence) is not None:
        return False
    head = sentence[: found.start()]
    purpose = sentence[found.end() :]
    return (
        _my_step_at(head, sentence) is not None
        and _BEFORE_TABLE.first(head + ":") is None
        and _EXAMPLE_NOUN.search(purpose) is None
        # (a step of showing counts where it is the writer's now, not in the purpose: "così quando ti
        # propongo una ricetta")
        and _PRESENTS_STEP.search(head) is None
    )


# The block called the real thing, after an example given in words ("here's the actual number:")
_REAL_ONE = regex.compile(
    r"(?<!\w)(?:here['’]?s|here\s+is|this\s+is|and\s+now)\s+(?:the|my|your)\s+(?:actual|real)(?!\w)",
    regex.IGNORECASE,
)


# A format as the manner of a step: the word after a preposition, a few words between ("in a
# short list format", "en formato de lista", "au format titre + auteur", "im Format", "в формате")
_IN_FORMAT = regex.compile(
    r"(?<!\w)(?:in|into|im|en|au|sous|em|no|num|numa|nesse|neste|nessa|nesta|naquele|nel|nello|col|con|w|we|ve|v|в|у|op|på|i|în|într-un|într-o)"
    r"\s+(?:[^\s:：]+\s+){0,5}?"
    r"(?:format|formats|formato|formatos|formaat|formátu|formacie|формат\w*)(?!\w)"
    # (not one a comparison opens onto, a few words before the colon: "in un formato tipo:", "in
    # a format like this one:"; one that the comparison names and a clause goes on from, "num
    # formato tipo resumo de viagem, assim fica fácil ...:", or made with what is already kept,
    # "in the same format as the rest of your profile", is the step's)
    r"(?![ \t]+(?:like|such|as|tipo|come|comme|como|wie|как|als)(?!\w)"
    r"(?![ \t]+(?:the\s+(?:rest|others?|ones?)|before|usual|always|your\s+other)(?!\w))"
    r"(?![^,，;:：\n]*[,，;][^\n]*\w))"
    # (or a format the thing noted names, in a clause of its own: "salvo che vuoi questo formato
    # per le foto", "I'm noting that you prefer the ISO format")
    r"|(?<!\w)(?:that|che|que|qu['’]|dass|что|że|že)\s+(?:[^\s:：]+\s+){1,6}?"
    r"(?:format|formats|formato|formatos|formaat|formátu|formacie|формат\w*)(?!\w)",
    regex.IGNORECASE,
)


def _saved_in_format(sentence: str) -> bool:
    """Whether the lead names the writer's own step now and its only word of an example is the
    format the step keeps the thing in ("I'm saving it in a short list format:", "La guardo en
    formato de lista corta:", "Te le segno in un formato veloce:", "Сохраняю в формате списка:"):
    that says how the block was written, as "in PDF format" names a property of a file. A lead
    that hedges, asks or negates the step, or one whose other words still introduce an example
    ("I'll save it in this format, for example:"), keeps the block shown."""
    found = _IN_FORMAT.search(sentence)
    if found is None or _ASK_MARK(sentence) is not None or _PRESENTS_STEP.search(sentence) is not None:
        return False
    head = sentence[: found.start()]
    # (a hedge or a negation after the format is a purpose's, "para você não esquecer", "così la
    # prossima volta"; before it, the step's; a "like this" after it is still read below)
    return _plain_step(head, sentence) and _BEFORE_TABLE.first(head + sentence[found.end() :]) is None


def _plain_step(head: str, sentence: str) -> bool:
    """Whether ``head``, the start of ``sentence``, names the writer's own step now, neither
    hedged from the step on nor negated right before it ("No lo guardo"; a negation clauses
    earlier is the reason's)."""
    at = _my_step_at(head, sentence)
    if at is None or _HEDGED.search(head, at) is not None or _HEDGED_INTL.search(head, at) is not None:
        return False
    return _NO_REPORT.search(head, max(0, at - _NEGATION_REACH)) is None


_NEGATION_REACH = 16


def _my_step_at(head: str, sentence: str) -> int | None:
    """Where ``head``, the start of ``sentence``, names the writer's own step now, in the
    indicative: anywhere by an auxiliary or a pronoun ("so I'm filing it", "je le note"), or by
    the verb's person among its first words (after a clitic or two: "Te le segno", "Ищу")."""
    found = _MY_STEP_NOW.search(head)
    if found is not None:
        return found.start()
    starts: Iterable[regex.Match[str]] = itertools.islice(_WORD_START.finditer(head), 3)
    # (or after a short phrase of time or manner that opens the sentence with its comma:
    # "Enquanto isso, já guardo ...", "Intanto, aggiungo ...")
    comma = head.find(",", 0, _OPENING_CHARS)
    if comma > 0:
        starts = itertools.chain(starts, itertools.islice(_WORD_START.finditer(head, comma), 2))
    for m in starts:
        if _MY_STEP_INTL.match(sentence, m.start()) is not None:
            return m.start()
    return None


_OPENING_CHARS = 24


_WORD_START = regex.compile(r"(?<!\w)\w")


# A web or mail address: its words are no one's ("example.org", "/for-example/"), so a lead line that
# gives one ("Saving the link (https://example.org/recipes):") is judged without them.
_LINK = regex.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)[^\s)\]>\"'”’»]*[^\s)\]>\"'”’».,:;!?]|"
    r"(?<![\w@.-])(?:[\w-]+\.)+(?:com|org|net|edu|gov|io|dev|app|info|co|me|ai|uk|de|fr|es|it|nl|ru|jp|cn)"
    r"(?![\w-])(?:/(?:[^\s)\]>\"'”’»]*[^\s)\]>\"'”’».,:;!?])?)?",
    regex.IGNORECASE,
)


# What every address holds. A line without any is returned as it is: the address's own search,
# tried at every position of a line, costs some 20 us, a tenth of a whole reply's parse on prose
# full of links, so it is tried only on the words these find.
_LINK_GATE = re.compile(r"\.(?:com|org|net|edu|gov|io|dev|app|info|co|me|ai|uk|de|fr|es|it|nl|ru|jp|cn)\b", re.I)
_LINK_FOUND = re.compile(_LINK_GATE.pattern + r"|://|www\.|@", re.I)
# What may stand around an address in a sentence: brackets, quotation marks, the sentence's stops
_AROUND_LINK = "()[]<>\"'“”‘’«».,:;!?"


def _unlinked(line: str) -> str:
    if "." not in line or not ("://" in line or "www." in line or "@" in line or _LINK_GATE.search(line) is not None):
        return line
    out: list[str] = []
    done = 0
    for found in _LINK_FOUND.finditer(line):
        if found.start() < done:
            continue  # (in the word already looked at)
        start = max(line.rfind(" ", done, found.start()), line.rfind("\t", done, found.start())) + 1
        end = min((i for i in (line.find(" ", found.end()), line.find("\t", found.end())) if i >= 0), default=len(line))
        word = line[start:end]
        address = word.strip(_AROUND_LINK)
        if address and _LINK.fullmatch(address) is not None:
            at = word.index(address)
            word = word[:at] + "link" + word[at + len(address) :]
        out += (line[done:start], word)
        done = end
    return "".join(out) + line[done:]


# The writer's own keeping of something the reader sent, leading into the block that keeps it
# ("Saving the link you sent:", "Guardo la dirección que me enviaste:"): the block is the
# writer's step on what was sent, not the thing sent recited.
_KEEPING_WHAT_SENT = regex.compile(
    # (a one-word adverbial set off by a comma may open the clause: "First, saving the mileage you gave me:")
    r"(?:^|(?<=[.!?][ \t]{0,3}))(?:[\W_]{0,3}(?:\p{L}{2,12},[ \t]+)?(?:(?:I['’]ll|I\s+will|I['’]m|I\s+am|let\s+me|I['’]ve|I\s+have)\s+(?:just\s+|also\s+)?)?"
    r"(?:saving|saved|save|noting|noted|note|storing|stored|store|adding|added|add|keeping|kept|keep|filing|filed|"
    r"recording|recorded|logging|logged|jotting\s+down)\s+(?:down\s+)?(?:the|your|this|that|those|these)\s+"
    r"[^\n:：]{0,80}?\byou\s+(?:just\s+)?(?:sent|shared|gave|pasted)(?:\s+me)?\b[^\n:：]{0,80}[:：][ \t*_]*$|"
    r"[\W_]{0,3}(?:guardo|anoto|apunto|guardando|anotando|apuntando|registro)\s+(?:el|la|los|las|tu|tus)\s+"
    r"[^\n:：]{0,80}?\bque\s+me\s+(?:enviaste|mandaste|pasaste|compartiste)\b[^\n:：]{0,80}[:：][ \t*_]*$|"
    r"[\W_]{0,3}(?:j['’]enregistre|je\s+note|j['’]ajoute|je\s+garde)\s+(?:le|la|les|l['’]|ton|ta|tes|votre|vos)\s*"
    r"[^\n:：]{0,80}?\bque\s+(?:tu\s+m['’]as|vous\s+m['’]avez)\s+(?:envoyée?s?|partagée?s?|transmise?s?)\b"
    r"[^\n:：]{0,80}[:：][ \t*_]*$|"
    r"[\W_]{0,3}(?:salvando|anotando|guardando|salvo|anoto|guardo)\s+(?:o|a|os|as|seu|sua|teu|tua)\s+"
    r"[^\n:：]{0,80}?\bque\s+(?:você\s+)?me\s+(?:enviou|mandou|passou)\b[^\n:：]{0,80}[:：][ \t*_]*$)",
    regex.IGNORECASE,
)


# The reader's sending told in a clause on a noun ("the sample line you pasted", "a receita que
# você me passou", "la recette que tu m'as donnée", "die Liste, die du mir geschickt hast")
_SENT_ON_NOUN = regex.compile(
    # (or asked whether it was sent: "Deixa eu ver se você já me passou o código", "Let me check whether you sent it")
    r"(?<!\w)(?:if|whether|se|si|ob)\s+(?:you|você|vc|tu|du|vous)\s+(?:já\s+|already\s+|ever\s+|schon\s+|déjà\s+|ya\s+)?"
    r"(?:me\s+|m['’]\s*|mir\s+)?(?:sent|gave|shared|passou|mandou|enviou|deu|as\s+envoyé|as\s+donné|avez\s+envoyé|"
    r"enviaste|mandaste|pasaste|geschickt|gegeben)(?!\w)|"
    r"(?<=\p{L}[ \t,]{1,3})(?:"
    r"(?:that\s+|which\s+)?you\s+(?:just\s+|already\s+)?(?:sent|pasted|shared|gave|forwarded|wrote|uploaded|attached)|"
    r"que\s+(?:você\s+|vc\s+)?(?:já\s+|ya\s+)?me\s+(?:enviaste|mandaste|pasaste|compartiste|diste|enviou|mandou|passou|deu|"
    r"compartilhou)|que\s+(?:ya\s+)?me\s+(?:has|habéis|ha)\s+(?:enviado|mandado|pasado|compartido|dado)|"
    # (or asked which: "deixa eu ver quais arquivos você já me mandou", "déjame ver qué archivos me has mandado")
    r"(?:quais|qual|qué|cuál|cuáles)\s+(?:\p{L}+\s+)?(?:você\s+|vc\s+)?(?:já\s+|ya\s+)?me\s+(?:enviou|mandou|passou|"
    r"deu|compartilhou|enviaste|mandaste|pasaste|(?:has|ha)\s+(?:enviado|mandado|pasado|dado))|"
    r"(?:tu\s+m['’]as|vous\s+m['’]avez)\s+(?:envoyé|donné|partagé|collé|passé|transmis)e?s?|"
    # (the Nordic and Dutch "(that) you pasted": "utdraget du klistrade in", "het bestand dat je stuurde")
    r"(?:som\s+)?du\s+(?:just\s+|nettopp\s+|lige\s+)?(?:skickade|klistrade\s+in|delade|gav\s+mig|laddade\s+upp|bifogade|"
    r"sendte|delte|limte\s+inn|indsatte|sendt)|(?:die|dat)\s+(?:je|u)\s+(?:me\s+|mij\s+)?(?:net\s+)?(?:stuurde|plakte|gaf|deelde|"
    r"hebt\s+gestuurd|hebt\s+geplakt)|"
    r"che\s+mi\s+hai\s+(?:mandato|inviato|passato|dato|incollato|girato)|"
    r"(?:die|den|das)\s+du\s+mir\s+(?:geschickt|gegeben|geschrieben|weitergeleitet)\s+hast|"
    r"(?:котор\w+|что)\s+(?:ты|вы)\s+(?:мне\s+)?(?:прислал\w*|отправил\w*|скинул\w*|дал\w*|переслал\w*))(?!\w)",
    regex.IGNORECASE,
)
# A noun for a call itself: the one the reader sent is what a block under such a lead recites
_CALL_NOUN = regex.compile(
    r"(?<!\w)(?:block|call|snippet|code|json|command|bloque|llamada|código|codigo|bloc|appel|aufruf|chiamata|codice|"
    r"bloco|chamada|блок|вызов|код)\w{0,2}(?!\w)",
    regex.IGNORECASE,
)


def _acts_on_what_sent(sentence: str) -> bool:
    """Whether the lead's "you sent" tells of a thing the writer's own step, named before it, works
    on ("I'm running it on the sample line you pasted:", "Deixa eu buscar a receita que você me
    passou:"): the block is that step, not the thing sent. A step that shows or repeats it, a
    hedge, or a thing that is itself a call ("the call you sent me") keeps it recited."""
    found = _SENT_ON_NOUN.search(sentence)
    if found is None:
        return False
    head = sentence[: found.start()]
    # (a hedge counts from the step on: "You should never have to redo it, so I'm filing it ...")
    at = _my_step_at(head, head)
    if at is None and (step := _NEXT_STEP_SLAVIC.match(head)) is not None:
        at = step.start()
    return (
        at is not None
        and _HEDGED.search(head, at) is None
        and _PRESENTS_STEP.search(head) is None
        and _RECITES.search(head) is None
        and _CALL_NOUN.search(head[-40:]) is None
    )


# The thing sent as the topic, then the writer's own step on it in the indicative, where Chinese
# and Japanese put it first ("你发来的那首诗我直接帮你跑一下：", "送ってくれたリストを保存します："); a step
# of showing or repeating it ("你发来的代码是这样的：") is no step of the writer's own
_SENT_THEN_MINE = regex.compile(
    r"你(?:发来|发给我|发|给我|贴|贴给我|传)的[^，。：:\n]{0,16}?(?:我|，我?)(?:直接|先|来|就|马上|这就|现在)?(?:帮你)?"
    r"(?:跑|运行|执行|算|计算|数|统计|检查|处理|看|存|保存|记|记下|查|搜|搜索|整理|加)"
    r"|送って(?:くれた|もらった|いただいた)[^、。：:\n]{0,16}?を(?:今から|すぐに?)?(?:保存|実行|計算|検索|記録|登録)(?:し|します|しますね|しておきます)"
)


# Russian and Ukrainian "then" or "now" and the first person's verb ("Потом посчитаю сумму по тем
# позициям, что вы прислали"): after the adverb of sequence the next word is the step, whatever its ending
_NEXT_STEP_SLAVIC = regex.compile(
    r"[\W_]{0,3}(?:потом|затем|теперь|сейчас|сначала|дальше|потім|тепер|зараз|спочатку|далі)\s+(?:я\s+)?"
    r"\w{3,}(?:аю|яю|ею|ую|ю|у)(?!\w)",
    regex.IGNORECASE,
)


_RECITES = regex.compile(
    r"(?<!\w)(?:repeat\w*|recit\w*|echo\w*|paste\w*|copy\w*|reproduc\w*|repit\w*|repet\w*|cit\w*|wiederhol\w*|"
    r"повтор\w*|цитир\w*)(?!\w)",
    regex.IGNORECASE,
)


# What the reader sent or gave, told in a clause of reason or time that follows the writer's own
# clause ("Saving it now that you gave me the OK:", "Storing it, because you sent me your
# confirmation:"): the clause says why the writer acts, and the block is that act, not the thing
# sent. The thing has a noun of its own; "this" or "the following" would point at the block.
_SENT_AS_REASON = regex.compile(
    r"(?<=\w[ \t,;—–-]{0,3}[ \t])(?:now\s+that|since|because|as|once|after|given\s+that|seeing\s+(?:as|that))\s+"
    r"you(?:['’]ve|\s+have|['’]d|\s+had)?\s+(?:just\s+|already\s+|finally\s+|kindly\s+)?"
    r"(?:sent|gave|given|shared|pasted|wrote|written)\s+(?:me|us)?\s*(?:the|your|an?|some)\s+"
    r"(?!(?:following|block|call|snippet|code|text)(?!\w))\p{L}[^\n:：]{0,60}[:：][ \t*_]*$",
    regex.IGNORECASE,
)


def _sent_as_reason(sentence: str) -> bool:
    """Whether the lead's "you sent" stands in a clause of reason after the writer's own clause
    (see :data:`_SENT_AS_REASON`), and that clause recites nothing itself; or in one that opens
    the sentence, before the writer's own step (see :data:`_REASON_FIRST`)."""
    found = _SENT_AS_REASON.search(sentence)
    if found is not None:
        return _BEFORE_TABLE.first(sentence[: found.start()].rstrip(" \t,;—–-") + ":") != "quoted"
    first = _REASON_FIRST.match(sentence)
    if first is None:
        return False
    step = first.group("step")
    return _my_step_at(step, step) is not None and _BEFORE_TABLE.first(step) != "quoted"


# A clause of reason that opens the sentence, maybe after "but" or "and", up to its comma, and the
# clause after it ("Pero como me has pasado las notas aquí mismo, lo calculo directamente:", "Since
# you sent the list, I'm adding it:"): what was sent is the reason, the step after it the block
_REASON_FIRST = regex.compile(
    r"[\W_]{0,3}(?:(?:but|and|pero|y|mas|e|mais|et|aber|und|ma)\s+)?(?:since|as|because|now\s+that|como|ya\s+que|"
    r"puesto\s+que|dado\s+que|comme|puisque|vu\s+que|da|weil|nachdem|já\s+que|visto\s+que|poiché|siccome|dato\s+che)\s+"
    r"[^,，\n]{3,80}[,，][ \t]*(?P<step>[^\n]{2,})",
    regex.IGNORECASE,
)


# The word for a block made, opening the clause that leads into it and followed only by how it
# was made ("Guardado assim:", "Saved like this:", "Anotado así:")
_MADE = regex.compile(
    r"[\W_]{0,3}(?:saved|noted|stored|recorded|added|updated|logged|filed|guardado|anotado|apuntado|registrado|"
    r"actualizado|enregistré|noté|ajouté|gespeichert|notiert|eingetragen|vermerkt|salvo|guardei|anotei|atualizado|"
    r"salvato|annotato|registrato|aggiornato|сохранено|записано|сохранил|записал|opgeslagen|genoteerd|sparat|"
    r"gemt|lagret|zapisane|zapisałem|zapisałam|kaydedildi|kaydettim|disimpan|dicatat|đã\s+lưu|已保存|已记录|已更新)"
    # then only a pronoun for it and the word for how: "Saved entries look like this:" is an example
    r"(?:\s+(?:it|that|this|them|lo|la|es|das|le|il))?[ \t,]*(?:as\s+follows|like\s+(?:this|so|that)|this\s+way|"
    r"thus|así|de\s+esta\s+forma|assim|desta\s+forma|ainsi|comme\s+(?:ceci|ça|suit)|so|wie\s+folgt|"
    r"folgendermaßen|così|come\s+segue|так|вот\s+так|als\s+volgt|zo|så|sådan|slik|tak|böyle|begini|như\s+sau|"
    r"如下|这样)[ \t*_]*(?:[:：]|\.\.\.|…)?[ \t*_]*$",
    regex.IGNORECASE,
)


def _made_so(clause: str) -> bool:
    """Whether the clause that leads into a block tells the writer's own making of it ("I have
    recorded the board's decision as follows:", "Guardado assim:"): its "as follows" or "assim"
    says how the block was made, not that it is only an example. A condition, a wish or a
    negation makes it no report, and an example's noun in it still presents one."""
    if _EXAMPLE_NOUN.search(clause) is not None or _NO_REPORT.search(clause) is not None:
        return False
    return _MADE.match(clause) is not None or reports_done(clause)


# A message the writer says is not sent, or held until the reader has seen it: the writer's
# sending verb negated ("I haven't sent it", "no lo envío", "noch nicht gesendet", "jsem ho
# neposlal"), or put off until the reader answers ("held back until you've had a look", "before
# I send it", "hasta que me digas", "ich warte auf dein Okay", "等你看过再发").
_HELD_ROWS = (
    r"(?<!\b(?:you|he|she|they|we|it)\s)(?:haven['’]t|have\s+not|didn['’]t|did\s+not|won['’]t|will\s+not)\s+"
    r"(?:yet\s+)?(?:sent|send)\b|"
    r"\bnot\s+(?:yet\s+)?sent\b|\b(?:stays|remains|kept|keep\s+it)\s+unsent\b|\bunsent\s+until\b|"
    r"\bpending\s+your\s+(?:ok|okay|go-ahead|approval|confirmation|review)\b|\bbefore\s+it\s+goes\s+(?:anywhere|out)\b|"
    r"(?:hold|held|holding|wait|waiting)\b[^\n]{0,30}?\buntil\s+you\b|"
    # (the step waited with until the reader speaks: "jeg venter med å lagre til du har sagt ja")
    r"\b(?:venter|väntar)\s+med\s+(?:å\s+|at\s+|att\s+)?\w+[^\n]{0,20}?\b(?:til|inntil|indtil|tills|till)\s+(?:du|dere|I)\b|"
    r"\bnothing\s+(?:is|gets|will\s+be)\s+(?:stored|saved|sent|changed|written)\s+until\s+you\b|"
    r"\bhold(?:ing)?\s+off\b|\bbefore\s+(?:I\s+send|sending)\b|"
    r"\bwait(?:ing)?\s+for\s+your\s+(?:ok|okay|go-ahead|approval|confirmation)\b|\bsay\s+the\s+word\b[^.!?\n]{0,30}?\bsend\b|\buntil\s+then\b|"
    r"no\s+(?:lo|la|te\s+lo)\s+(?:envío|mando|envié|mandé|he\s+enviado|he\s+mandado)\b|"
    r"(?:todavía|aún)\s+no\s+(?:lo\s+|la\s+)?(?:he\s+)?(?:enviado|mandado)\b|"
    # "unsent" said as "without sending" ("sin enviar todavía", "sans l'envoyer", "senza inviarlo")
    r"\bwithout\s+sending\s+it\b|\bsin\s+(?:enviar(?:lo|la)?|mandar(?:lo|la)?)\b(?!\s+(?:nada|a\s+nadie))|\bsans\s+l['’]envoyer\b|"
    r"\bsenza\s+(?:inviarl[oa]|mandarl[oa])\b|\bsem\s+(?:o\s+|a\s+)?(?:enviar|mandar)\b(?!\s+(?:nada|a\s+ninguém))|"
    r"\bohne\s+(?:es|sie|ihn)\s+(?:zu\s+senden|abzuschicken|zu\s+verschicken)\b|"
    r"hasta\s+que\s+(?:me\s+)?(?:digas|des|confirmes|lo\s+revises|lo\s+veas)\b|"
    # (ca: "Encara no l'envio, l'aguanto fins que em diguis que està bé")
    r"no\s+(?:l['’]|el\s+|la\s+|t['’]el\s+)?(?:envio|he\s+enviat|envi[eï])\b|"
    r"fins\s+que\s+(?:no\s+)?(?:em\s+)?(?:diguis|donis|confirmis|ho\s+revisis|ho\s+vegis|el\s+revisis)\b|"
    r"(?:noch\s+)?nicht\s+(?:gesendet|verschickt|abgeschickt|versendet)\b|"
    r"\b(?:schicke|sende|verschicke)\b[^.!?\n]{0,20}?\berst\b[^.!?\n]{0,10}?\bwenn\s+du\b|"
    r"(?:ich\s+)?warte\s+auf\s+dein(?:e|en)?\s+(?:okay|ok|go|freigabe|bestätigung|zustimmung)\b|"
    r"\bbis\s+du\s+(?:es\s+|das\s+|ihn\s+|sie\s+)?(?:gesehen|gelesen|bestätigt|freigegeben|abgesegnet|okay|ok|ja)\b|"
    r"\bich\s+warte\s+mit\s+dem\s+(?:speichern|senden|abschicken|eintragen)\b|"
    # (nothing sent yet, told with the participle first: "Abgeschickt ist noch nichts", and sent only
    # then: "erst dann schicke ich es raus")
    r"\b(?:abgeschickt|gesendet|verschickt|versendet)\s+(?:ist|wurde|habe\s+ich)\s+noch\s+nichts\b|"
    r"\berst\s+dann\s+(?:schicke|sende|verschicke)\s+ich\b|"
    r"\b(?:je\s+ne\s+l['’]ai\s+pas|pas\s+encore)\s+(?:encore\s+)?envoyé\b|\bje\s+ne\s+l['’]envoie\s+pas\b|"
    r"tant\s+que\s+tu\s+n['’]as\s+pas\b|jusqu['’]à\s+ce\s+que\s+tu\s+(?:confirmes|valides|me\s+dises|l['’]aies|(?:la\s+|le\s+)?relises)\b|"
    r"non\s+l['’]ho\s+(?:ancora\s+)?(?:inviato|mandato)\b|finché\s+non\s+(?:mi\s+)?(?:dici|confermi|dai|l['’]hai)\b|"
    r"não\s+(?:o\s+|a\s+)?(?:enviei|mandei|envio|mando)\b|até\s+(?:você|tu)\s+(?:aprovar|confirmar|ver|dizer|ler)\b|"
    r"(?:jsem\s+)?(?:ho\s+|ji\s+|to\s+)?(?:neposlal|neodeslal)[a]?\b|nie\s+(?:wysłałem|wysłałam|wysyłam)\b|"
    r"не\s+(?:отправил|отправила|отправляю|отправлю)\b|"
    # (uk, hu: "Поки що нічого не відправляю", "még nem hajtom végre")
    r"(?:нічого\s+)?не\s+(?:відправляю|надсилаю|відправлю|надішлю|відправляв|відправляла|надсилав|надсилала)\b|"
    # (not kept yet, for now: "Поки що не зберігаю", "Пока не сохраняю")
    r"(?:поки\s+(?:що\s+)?|пока\s+(?:что\s+)?)не\s+(?:зберігаю|записую|сохраняю|записываю)\b|"
    r"\bmég\s+nem\s+(?:hajtom\s+végre|küldöm\s+el|mentem\s+el|küldtem\s+el|mentettem\s+el)\b|"
    # (cs: "zatím ho neprovádím – počkám, až mi ho odsouhlasíš")
    r"\bzatím\s+(?:ho|to|ji|je)\s+ne(?:provádím|ukládám|posílám|odesílám|spouštím)\b|\bpočkám,?\s+až\b|"
    # (the verb first, then "won't" with "yet": "Отправлять пока не буду")
    r"отправлять\s+(?:пока|ещё|еще)\s+не\s+(?:буду|стану)\b|не\s+(?:буду|стану)\s+(?:пока|ещё|еще)\s+отправлять\b|"
    r"还没(?:有)?(?:发|发送)|等你[^\n]{0,10}再发|(?:まだ)?送(?:って|信して)いません|"
    # the verbal noun first, as the topic ("送信はまだしていません")
    r"送信は(?:まだ)?して(?:い)?ません|"
    # (kept back until the reader has looked: "確認いただくまで保留にしておきます", "まだ保存していません")
    # (from the start of the run of kana and kanji, as every row stands after no word character)
    r"[\p{Han}\p{Hiragana}\p{Katakana}ー]*?(?:まで(?:は)?保留|保留に(?:して|し|します)|まだ保存(?:して)?いません|"
    r"保存は(?:まだ)?して(?:い)?ません)|"
    # the writer's step on the block denied until the reader speaks, in any verb ("Jag skickar
    # det inte förrän du säger till:", "I'm not saving it until you say so:"); not a step of
    # nobody's on nothing ("No need to do anything until you get the letter; ...")
    r"(?:(?:it|det|den|het|es|das|ihn|lo|la|l['’]|o|a|его|её|это)\s+(?:\w+\s+)?(?:not|n['’]t|inte|ikke|nicht|"
    r"pas|no|non|não|niet|nie|не)|(?:not|n['’]t|inte|ikke|nicht|pas|no|non|não|niet|nie|не)\s+(?:\w+\s+){0,2}?"
    r"(?:it|this|that|them|det|den|het|dit|dat|es|das|lo|la|l['’]|o|a|его|её|это))\b[^.!?;\n]{0,30}?\b"
    r"(?:(?:until|till)[ ]you|(?:förrän|tills)[ ]du|(?:indtil|inntil|før)[ ](?:du|dere)|bis[ ](?:du|sie)|"
    r"totdat[ ](?:jij|je|u))\b"
)
# Each row searched only where its words occur (a line of everyday prose holds "sent" or
# "command" often enough that one pattern of all the rows, tried at each position, would cost)
HELD_BACK = Words(["|".join(rf"(?<!\w)(?:{row})" for row in alternatives(_HELD_ROWS))], regex.IGNORECASE)


# Pieces of text that each row of HELD_BACK holds: a line without any of them is no draft
_HELD_GATES = (
    *(
        "sent",
        "send",
        "hold",
        "held",
        "wait",
        "until then",
        "pending",
        "goes",
        "envi",
        "enví",
        "mand",
        "hasta",
        "fins que",
        "erst dann",
        "noch nichts",
        "schick",
        "gesendet",
        "versendet",
        "warte",
        "without sending",
        "sans l",
        "senza ",
        "sem ",
        "ohne ",
        "sin ",
    ),
    *(
        "bis du",
        "envoy",
        "envoi",
        "tant que",
        "jusqu",
        "inviat",
        "finch",
        "até",
        "posl",
        "odesl",
        "wysł",
        "wysy",
        "отправ",
        "venter med",
        "väntar med",
        "zatím",
        "počkám",
        "відправ",
        "надсила",
        "не зберігаю",
        "не записую",
        "не сохраняю",
        "не записываю",
        "надішл",
        "még nem",
        "发",
        "送",
        "保留",
        "保存",
    ),
    *("until you", "till you", "förrän du", "tills du", "indtil du", "inntil du", "før du", "før dere", "bis sie"),
    *("totdat jij", "totdat je", "totdat u"),
)


# Any of _HELD_GATES, found in one search of their trie rather than a test per gate
_HELD_GATE = re.compile(any_of(_HELD_GATES)).search


# The writer's step put off to the moment the reader speaks: "only" with a word of time or
# condition, then the reader as subject or the writer as the one spoken to, a word or two on
# ("lo salvo solo quando mi dai l'ok:", "I'll save it only once you say so:"); a step told as
# done is not put off
_ON_READERS_WORD = re.compile(
    r"(?<!\w)(?:(?:only|just|solo|sólo|soltanto|solamente|seulement|nur|erst|apenas|só|alleen|pas|bara|kun|tylko|только)"
    # (a verb's particle may stand before the comma: "Ich trage es erst ein, wenn du ...")
    r"(?:[ \t]+\w+,)?[ \t,]+(?:when|once|if|quando|cuando|quand|lorsque|wenn|sobald|falls|als|wanneer|när|om|når|"
    r"hvis|gdy|kiedy|jeśli|когда|если))[ \t]+(?:[\w'’]+[ \t]+){0,2}?"
    r"(?:you|tu|du|vous|usted|você|jij|je|u|ty|ты|вы|mi|me|m['’]|mir|mich|mij|mig|mnie|мне)(?!\w)",
    regex.IGNORECASE,
)


def _may_hold_back(sentence: str) -> bool:
    return _HELD_GATE(sentence[:LINE_CHARS].lower()) is not None


# Sending named with no object of its own: the block is what is not sent ("... before sending.")
_SENDING_ALONE = regex.compile(
    r"\bbefore\s+sending\s*[.!]|\bantes\s+de\s+enviar(?:lo|la)?\s*[.!]|\bavant\s+de\s+l['’]envoyer\b|"
    r"\bvor\s+dem\s+(?:senden|abschicken)\b",
    regex.IGNORECASE,
)


def _holds_it_back(line: str) -> bool:
    """Whether the line right after a message says that message is not sent, or held for the
    reader's word ("No lo envío hasta que me digas.", "Ich schicke es erst ab, wenn du okay
    sagst."): a pronoun points back at it, or the sending has no object of its own; "I'll hold off
    on the second one until you decide" holds another."""
    if not HELD_BACK.search(line):
        return False
    return (_BACK.search(line) is not None or _SENDING_ALONE.search(line) is not None) and _TOO.search(line) is None


# A comma and a word that opens a clause as the consequence of the one before it
_THEREFORE = (
    r"(?:so|therefore|hence|thus|also|daher|deshalb|darum|deswegen|donc|alors|du\s+coup|así\s+que|"
    r"por\s+eso|por\s+lo\s+tanto|então|por\s+isso|quindi|dunque|perciò|perció|поэтому|так\s+что|тому|więc|"
    r"dlatego|dus|daarom|derhalve|så|derfor|joten|siksi|ezért|így|deci|așa\s+că|bu\s+yüzden|o\s+yüzden|jadi|"
    r"makanya|nên|vì\s+vậy|do\s+đó|οπότε|άρα|lo\s+que|per\s+això|així\s+que|इसलिए|इसीलिए|তাই|সেজন্য|لذلك|لذا|"
    r"بنابراین|לכן|kwa\s+hiyo|bu\s+nedenle|因此|所以|だから|그래서)(?!\w)"
)
# A sentence that opens with a condition on what a step finds, up to its first comma: nothing
# found, or a finding verb negated ("Se não encontrar,", "If nothing comes up,", "Si je ne trouve
# rien,", "Nisipopata kitu,"); not one on what the writer knows ("If I heard you right,", "Si je
# ne me trompe pas,").
_ON_RESULT = regex.compile(
    r"\W{0,4}(?:(?:if|se|si|wenn|falls|als|om|hvis|jeśli|jeżeli|если|якщо|eğer|αν|nếu|jika|kalau|kama|ikiwa|"
    r"dacă|ha|jos|pokud)\b[^,，\n]{0,60}?(?:\b(?:nada|rien|nothing|nichts|niente|nulla|ничего|нічого|hiçbir|"
    r"τίποτα|nic|niets|inget|ingenting|nenhum\w*|ningún|ninguno|aucun\w*|kein\w*|chochote)\b|"
    r"\b(?:no|não|ne|not|nicht|non|не|δεν)\s+(?:\w+\s+)?(?:encontr|ach[aeo]|trouv|find|finde|trov|найд|"
    r"βρ|bul)\w*)|(?:ni|u|a|tu|m|wa|i|zi|li|ya|ki|vi)sipo(?:pata|ona)\w*)",
    regex.IGNORECASE,
)


def _on_result(sentence: str) -> bool:
    return _ON_RESULT.match(sentence) is not None


_CONSEQUENCE = regex.compile(r"[,，][ \t]*(?=" + _THEREFORE + ")", regex.IGNORECASE)
_THEREFORE_WORD = regex.compile(_THEREFORE + r"[ \t,]*", regex.IGNORECASE)


def _after_consequence(clause: str) -> str:
    """``clause`` without the word of consequence that opens it, so that a word of two ("așa că",
    "du coup", "por lo tanto") leaves the step's verb as near the start as one does ("deci")."""
    found = _THEREFORE_WORD.match(clause)
    return clause if found is None else clause[found.end() :]


# A lead whose last clause is only a word of consequence, at most with a word for the manner
# after it ("..., a good example of something worth remembering, so:", "Also so:", "Quindi così:"):
# the block is what the writer does because of what was said, not an illustration of it. An
# example's noun right before the comma ("for example, so:") still presents one.
_THEREFORE_ONLY = regex.compile(
    r"(?:^|(?<!(?:examples?|beispiel|exemple|ejemplo|esempio|exemplo|пример|e\.g\.)[ \t]*)[,，])[ \t]*[\W_]{0,3}"
    + _THEREFORE
    # (English "Also, like this:" adds one more, so "also" takes its manner word without a comma)
    + r"(?:(?:(?<!also)[ \t]*,[ \t]*|[ \t]+)(?:so|thus|like\s+so|like\s+this|così|ainsi|comme\s+ça|assim|así|так|zo|tak))?"
    r"[ \t*_]*(?:[:：]|\.\.\.|…)[ \t*_]*$",
    regex.IGNORECASE,
)
# A comma and a word that opens a clause against the one before it ("..., but I've got it:");
# not the words that are also an article or a preposition elsewhere (Italian "ma", Hungarian "de")
_CONTRAST = regex.compile(
    r"[,，;][ \t]*(?=(?:but|yet|though|however|pero|aunque|sin\s+embargo|mais|cependant|pourtant|aber|doch|jedoch|"
    r"però|tuttavia|mas|porém|contudo|но|однако|maar|men|ale|jednak|ama|fakat|ancak|tapi|namun|nhưng|mutta|"
    r"totuși|αλλά|لكن|اما|אבל|लेकिन|কিন্তু|แต่|lakini)(?!\w))|[,，]?[ \t]*(?=不过|但是|可是|でも|しかし|하지만)",
    regex.IGNORECASE,
)
# A clause of reason after a comma ("..., since it's a big change", "..., porque me lo pediste")
_REASON_CLAUSE = regex.compile(
    r"[,，][ \t]*(?:since|because|porque|ya\s+que|puisque|car|weil|da|perché|poiché|так\s+как|потому\s+что)(?!\w)",
    regex.IGNORECASE,
)
# A clause, after a comma, about the rest of what was said rather than what the block holds
_THE_REST = regex.compile(
    r"[,，;][ \t]*(?:(?:but|and|while|mais|et|aber|und|pero|y|ma|e|но|а)\s+)?(?:the\s+rest|everything\s+else|"
    r"the\s+others|le\s+reste|tout\s+le\s+reste|der\s+rest|den\s+rest|alles\s+andere|el\s+resto|lo\s+demás|"
    r"il\s+resto|o\s+resto|остальное)(?!\w)",
    regex.IGNORECASE,
)
# A clause, after a comma, that puts a step off until later and ends the line
_LATER_CLAUSE = regex.compile(
    r"[,，;][^,，;\n]*\b(?:later|another\s+time|más\s+tarde|luego(?!\s+de\b)|plus\s+tard|später|più\s+tardi|mais\s+tarde|"
    # ("depois de"/"luego de" take an object: "after your confirmation" is no later step of its own)
    r"depois(?!\s+(?:d[aeo]s?|que)\b)|позже|потом)\b[^,，;\n]*$",
    regex.IGNORECASE,
)
# What someone sent, quoted in full on the line, then a clause of the writer's own that points
# nowhere back at a quotation ("You wrote "my sister is Hannah, not Anna" — updating:"): the
# quotation is what was sent, the block is the writer's answer to it.
_QUOTED_THEN = regex.compile(
    r"(?:\"[^\"\n]{1,200}\"|“[^“”\n]{1,200}”|«[^«»\n]{1,200}»|„[^„“”\n]{1,200}[“”]|「[^「」\n]{1,200}」)"
    r"[ \t]*(?:[—–,;]|-[ \t])[ \t]*(?!(?:here|this|that|it|voici|voilà|aquí|esto|hier|das|ecco|questo|aqui|isto|вот|это)(?!\w))"
    r"(?P<own>[^\s\"“”«»„「」][^\"“”«»„「」\n]*)$",
    regex.IGNORECASE,
)


# An example's noun, which presents an example whatever came before it on the line
_EXAMPLE_NOUN = regex.compile(
    r"(?<!\w)(?:examples?|ejemplos?|exemples?|beispiel\w*|exemplos?|esempi[o]?|пример\w*|приклад\w*|voorbeeld\w*|"
    r"exempel|eksempel|przykład\w*|příklad\w*|esimerk\w*|példa\w*|exemplu|örnek\w*|contoh|ví\s+dụ|παράδειγμα)(?!\w)|"
    r"例|示例|예시",
    regex.IGNORECASE,
)
_CORRECTION_WORDS = 3


def _corrects(before: str, sentence: str) -> bool:
    """Whether the line before a block takes back the block above it and then brings this one
    in with a few words ("Olvida eso; va bien así:", "Annulla quello sopra; giusto così:"):
    those words ("like this") present the correction, not an example of it."""
    clause = last_clause(sentence)
    if clause == sentence:
        # (or a comma: "Lascia perdere quella chiamata, faccio così:")
        clause = _after_last(_COMMA, sentence)
    taken_back = before[: len(before) - len(clause)]
    if not taken_back.strip() or len(clause.split()) > _CORRECTION_WORDS or _EXAMPLE_NOUN.search(clause):
        return False
    return _after_kind(taken_back) == "retracted"


_COMMA = regex.compile(r"[,，][ \t]*")


def _item_or_label(line: str) -> bool:
    """Whether ``line`` opens with a list item's marker or an alternative's label. A label
    that a word in lower case follows is the subject of a sentence ("Plan A fell through, so
    saving plan B:"), no label."""
    m = ITEM_OR_OPTION.match(line)
    if m is None:
        return False
    return LIST_ITEM.match(line) is not None or not line[m.end() :].lstrip(" \t*_")[:1].islower()


# A line that only names a tool, as the label of the block below it in a listing of tools:
# the name (after a list marker, heading marks or emphasis), then nothing, or a colon, a dash, a
# parenthesis (its signature) or a description after a dash.
# (the label's bullet or number may stand inside its emphasis, "**1. `memory_insert`** —", and be
# a bullet of CJK writing, "・list_files：")
_LISTED_NAME = regex.compile(
    r"[ \t]{0,3}[*_]{0,3}(?:[-*+•・●○▪▸]|\d{1,3}[.)]|#{1,6})?[ \t]*[*_`]{0,3}([A-Za-z_][\w.-]{0,63})"
)
_AFTER_NAME = regex.compile(r"[*_`]{0,3}[ \t]*(?:$|[:：(]|[—–]|-[ \t])")


# A line that introduces tools with the shape of their calls ("Here's what I can do with tools
# right now, with the shape each one takes:", "现在可以使用的工具（附调用格式）", "使えるツールと、その呼び出し形式")
_TOOLS_WORD = regex.compile(
    # (or what the writer can do, "Here's what I can do right now, with the call each one uses:")
    r"(?<!\w)(?:what\s+I\s+can\s+do|hulpmiddel\w*|"
    r"tools?|herramientas?|outils?|werkzeuge?|strumenti|ferramentas?|инструмент\w*|narzędzi\w*|"
    r"nástroj\w*|araçlar\w*|alat|công\s+cụ|unelt\w*|instrumente\w*|verktyg\w*|værktøj\w*|verktøy\w*|"
    r"työkalu\w*|eszköz\w*|εργαλεί\w*|eines|zana|أدوات|כלים|ابزار\w*|टूल|টুল)(?!\w)|ツール|工具|도구|เครื่องมือ",
    regex.IGNORECASE,
)
_SHAPE_WORD = regex.compile(
    r"(?<!\w)(?:shapes?|formats?|syntax|schemas?|forma|formato|formatos|forme|syntaxe|schéma|form|aufruf\w*|"
    r"sintassi|formata|формат\w*|синтаксис|вид|vorm|aanroep\w*|the\s+call\s+each|formatul|formatet|muoto\w*|"
    r"formátum\w*|μορφή|how\s+(?:each|a|the)\s+call\s+looks|cum\s+arată|hur\s+(?:varje|ett)\s+anrop|"
    r"hvordan\s+(?:hvert|et)\s+(?:kald|kall))(?!\w)|形式|格式|書式|呼び出し方|调用方式|형식|호출\s*방법",
    regex.IGNORECASE,
)


def lists_tools(line: str) -> bool:
    """Whether ``line`` introduces tools and the shape of their calls (see :data:`_TOOLS_WORD`)."""
    line = line[:LINE_CHARS]
    return _TOOLS_WORD.search(line) is not None and _SHAPE_WORD.search(line) is not None


def names_tool(line: str, tool: str) -> bool:
    """Whether ``line`` (the line directly before a block) is a label naming ``tool``, the
    block's own tool, as each entry of a listing of tools is (``**memory_insert**``,
    ``2. archival_memory_search — searches the archive:``)."""
    m = _LISTED_NAME.match(line)
    return m is not None and m.group(1) == tool and _AFTER_NAME.match(line, m.end()) is not None


# The writer's verb in the conditional, the last words of a line ("I'd add", "je l'ajouterais",
# "lo guardaría", "la salverei", "würde ich ergänzen")
_RUNS_ON = regex.compile(
    r"(?<!\w)(?:(?:I|we)(?:['’]d|\s+would)\s+\w+(?:\s+(?:it|this|that|them))?|(?:je\s+|j['’])(?:l['’]|les\s+)?\w+rais|"
    r"(?:lo|la|los|las|o|a|os|as)\s+\w+(?:aría|ería|iría|aria|eria|iria)|(?:lo|la|li|le)\s+\w+(?:arei|erei|irei)|"
    r"würde\s+ich(?:\s+\w+){1,3}|zou\s+ik(?:\s+\w+){1,3})$",
    regex.IGNORECASE,
)

_RUNS_ON_CHARS = 48
_RUNS_ON_GATES = ("'d ", "’d ", " would ", "rais", "ría", "ria", "rei", "würde ich", "zou ik")


def _runs_on(tail: str) -> bool:
    low = tail.lower()
    return any(gate in low for gate in _RUNS_ON_GATES) and _RUNS_ON.search(tail) is not None


# A quotation that ends a line, before its colon
_QUOTED_END = regex.compile(
    r"[ \t](?:«[^«»\n]{1,60}»|“[^“”\n]{1,60}”|„[^„“”\n]{1,60}[“”]|\"[^\"\n]{1,60}\")[ \t]*[:：][ \t*_]*$"
)


def opens_onto_next(line: str) -> bool:
    """Whether ``line`` opens onto what follows it: it ends in a colon or an ellipsis, or in a
    word that needs a complement ("like", "as", "with", "así", "ainsi", ...). Only such a line
    can introduce the block after it."""
    end = line.rstrip(" \t*_")
    if end.endswith((":", "：", "...", "…")):
        return True
    if end[-1:].isalpha() and _runs_on(end[-_RUNS_ON_CHARS:]):
        # a sentence that runs on into the block, the writer's verb in the conditional its
        # last word ("if there's no date stored, I'd add"): the block is what it would make
        return True
    m = _LAST_WORD.search(end)
    return m is not None and m.group().lower() in OPEN_ENDINGS


def _after_last(end_mark: regex.Pattern[str], text: str) -> str:
    """What of ``text`` follows the last ``end_mark`` that has something after it."""
    end = 0
    for m in end_mark.finditer(text):
        if m.end() < len(text):
            end = m.end()
    return text[end:]


def last_sentence(line: str) -> str:
    """The last sentence of ``line``: only it can address what follows the line."""
    sentence = _after_last(_SENTENCE_END, line)
    if " ?" in sentence or " !" in sentence or "\u00a0" in sentence or "\u202f" in sentence:
        sentence = _after_last(_SPACED_STOP, sentence)
    if sentence.isascii():
        return sentence
    if any(particle in sentence for particle in _THAI_CLOSES):
        sentence = _after_last(_THAI_END, sentence)
    return _after_last(_EMOJI_END, sentence)


def last_clause(sentence: str) -> str:
    """The part of ``sentence`` after its last semicolon; ``sentence`` itself when it has none."""
    return _after_last(_CLAUSE_END, sentence)


def continues(before: str) -> bool:
    """Whether the line before a block only goes on from the block above ("and then:")."""
    return CONTINUATION.match(last_sentence(before)) is not None


# Words a line may end in and still lead into the block below it, per language.
OPEN_ENDINGS = frozenset(
    [
        "like",
        "as",
        "with",
        "using",
        "via",
        "so",
        "this",
        "follows",
        "be",
        "is",
        "are",
        "example",
        "examples",
        "instance",
        "e.g",
        "e.g.",
        "written",
        "así",
        "asi",
        "esto",
        "este",
        "ceci",
        "ça",
        "cela",
        "ainsi",
        "suivant",
        "aus",
        "folgendermaßen",
        "folgt",
        "assim",
        "così",
        "modo",
        "так",
        "формат",
        "такой",
    ]
)
# "Like" and "with" in the other main languages, the last word of a line that runs on into the
# block under it ("... con algo como", "... etwa mit"): read as if a colon closed the line
RUN_ON_ENDINGS = frozenset(
    # (and the conditional of "to be", whose complement is the block: "o próximo passo seria")
    [
        *["como", "comme", "wie", "come", "вроде", "типа", "вида", "con", "com", "avec", "mit", "tipo"],
        *["seria", "sería", "sarebbe", "serait", "wäre", "было", "bylo"],
    ]
)
# and where no spaces part the words: "for example", "like", "roughly is"
RUN_ON_ENDINGS_UNSPACED = ("たとえば", "例えば", "例如", "比如", "大概是", "类似", "のように")
# Searched from the end (the regex module's reverse search): the same run of word characters,
# found without trying every word of the line first.
_LAST_WORD = regex.compile(r"(?r)[\w.]+$")
# Text one of which a line after a block must hold for each kind of remark to be looked for
# (lowercased); a line with none of them is ordinary prose, judged without a pattern.
_NEGATED = tuple(
    f"{neg} {verb}"
    for neg in ("n't", "n’t", "not")
    for verb in ("run", "ran", "actually", "execute", "store", "save", "sen", "call", "appl", "be ")
)
AFTER_GATES: dict[ProblemKind, tuple[str, ...]] = {
    "proposed": (
        # the same in the other languages of the tables
        *[
            "així",
            "aștept",
            "bekliyorum",
            "chờ bạn",
            "ciorna",
            "ciornă",
            "confirmació",
            "czekam na",
            "een concept",
            "en udkast",
            "en utkast",
            "esborrany",
            "et udkast",
            "et utkast",
            "ett utkast",
            "gửi",
            "có muốn",
            "kirim",
            "koncept",
            "lưu",
            "menunggu",
            "nasubiri",
            "nháp",
            "nihifadhi",
            "nitume",
            "návrh",
            "odeslat",
            "rasimu",
            "schiță",
            "simpan",
            "slik",
            "spara det så",
            "spara så",
            "szkic",
            "så här",
            "sådan",
            "taslak",
            "uložit",
            "venter på",
            "väntar på",
            "wacht op je",
            "als je akkoord",
            "als jij akkoord",
            "als u akkoord",
            "wysłać",
            "zapisać",
            "zo bewaren",
            "zo doorvoeren",
            "zo opslaan",
            "zo versturen",
            "čekám na",
            "đợi bạn",
            "περιμένω",
            "προσχέδιο",
            "טיוטה",
            "לשלוח",
            "לשמור",
            "מחכה",
            "أنتظر",
            "مسودة",
            "منتظر",
            "نویس",
            "इंतज़ार",
            "ड्राफ्ट",
            "मसौदा",
            "অপেক্ষা",
            "খসড়া",
            "ฉบับร่าง",
            "รอคุณยืนยัน",
            "แบบนี้",
            "기다리",
            "이렇게",
            "초안",
        ],
        # added with the rows for drafts, permission in other words, disclaimers and corrections
        *[
            "a draft",
            "tell me to",
            "mi dai l",
            "mi dai il",
            "たら送ります",
            "potwierdzisz",
            "zatwierdzisz",
            "zaakceptujesz",
            "potvrdíš",
            "schválíš",
            "たら保存",
            "れば保存",
            "たら登録",
            "れば登録",
            "たら実行",
            "れば実行",
            "れば送ります",
            "after you",
            "aguardo",
            "ainsi",
            "ajanko",
            "all right to",
            "alright to",
            "aplico",
            "apruebes",
            "arayayım",
            "as soon as you",
            "aspetto",
            "assim",
            "así",
            "borrador",
            "bozza",
            "brouillon",
            "comme ceci",
            "comme ça",
            "confermi",
            "confirmes",
            "così",
            "czy mam",
            "czy mog",
            "darf ich",
            "deso",
            "dessa forma",
            "desse jeito",
            "digas",
            "draf",
            "dès que tu",
            "einverstanden",
            "ekleyeyim",
            "entwurf",
            "envio",
            "espero tu",
            "etsinkö",
            "fine to",
            "futtassam",
            "go ahead",
            "good to",
            "göndereyim",
            "güncelleyeyim",
            "haenko",
            "j'attends",
            "je dois",
            "je peux",
            "j’attends",
            "kann ich",
            "kaydedeyim",
            "keressek",
            "kirjaanko",
            "korvaanko",
            "küldjem",
            "lisäänkö",
            "lähetänkö",
            "mahu aku",
            "mahu saya",
            "mau aku",
            "mau saya",
            "mentsem",
            "muutanko",
            "módosítsam",
            "nak aku",
            "nak saya",
            "ok to",
            "okay to",
            "once you",
            "passt das",
            "passt es",
            "pode ser",
            "procedo",
            "proceed",
            "päivitänkö",
            "quand tu",
            "rascunho",
            "rögzítsem",
            "sig ja",
            "so abschicken",
            "so eintragen",
            "so senden",
            "so speichern",
            "so übernehmen",
            "sobald du",
            "soll ich",
            "suoritanko",
            "tallennanko",
            "teenkö",
            "tu confirmes",
            "une fois que tu",
            "você confirmar",
            "vous confirmez",
            "waiting for your",
            "waiting on your",
            "warte auf deine",
            "when you",
            "жду",
            "записать",
            "искать",
            "не виконую",
            "не выполняю",
            "не відправляю",
            "не застосовую",
            "не зберігаю",
            "не надсилаю",
            "не отправляю",
            "не применяю",
            "не сохраняю",
            "нормально",
            "обновить",
            "отправить",
            "подойд",
            "подтверждаете",
            "подтверждаешь",
            "пойдёт",
            "применить",
            "сохранить",
            "чекаю на",
            "чернетка",
            "черновик",
            "أحفظه",
            "أرسله",
            "أسجله",
            "أطبقه",
            "أنفذه",
            "بدم",
            "بدهم",
            "بفرستم",
            "دهم",
            "هل أ",
            "کنم",
            "करूँ",
            "करूं",
            "दूँ",
            "दूं",
            "भेजूँ",
            "भेजूं",
            "सहेजूँ",
            "सहेजूं",
            "করব",
            "পাঠাব",
            "রাখব",
            "いい",
            "よろし",
            "下書き",
            "同意的话",
            "吗",
            "大丈夫",
            "承認",
            "确认",
            "草稿",
        ],
        "shall i",
        "should i",
        "may i",
        "can i",
        "want me",
        "want it",
        "want this",
        "want that",
        "want them",
        "like me",
        "does this",
        "does that",
        "does it",
        "is that",
        "is this",
        "is it ",
        "are you sure",
        "say ",
        "only",
        "until",
        "without your",
        "goes out",
        "^",
        "¿",
        "je l",
        "tu veux",
        "ça te va",
        "c'est bon",
        "c’est bon",
        "je peux",
        "soll ich",
        "passt das",
        "ist das",
        "darf ich",
        "posso",
        "quer que",
        "está bom",
        "tudo bem",
        "procedo",
        "vuoi che",
        "va bene",
        "solo",
        "hasta",
        "seulement",
        "jusqu",
        "nur ",
        "bis du",
        "só ",
        "até",
        "finché",
        "только",
        "подтверд",
        "сохранить",
        "отправить",
        "применить",
        "всё верно",
        "можно",
        "уверены",
        "хотите",
        "确认",
        "只有",
        "可以吗",
        "要我",
        "好吗",
        "是否",
        "確認",
        "よろし",
        "いいですか",
        "しますか",
        # nl, sv, da, nb, cs, pl, uk, fi, hu, ro, ca, tr, el, vi, id, ms, ar, fa, he, hi, bn, th, ko, sw:
        # one of the literals every match of their rows holds, lowercased (Turkish also with "i" for "ı")
        *[
            "alkalmazzam",
            "alleen als",
            "apakah",
            "să îl",
            "să o",
            "să le",
            "să îi",
            "balas",
            "bara om",
            "bekrefter",
            "bekräftar",
            "bekræfter",
            "bevestigt",
            "bilang",
            "katakan",
            "boleh",
            "chưa",
            "confirmi",
            "confirmă-mi",
            "dai voie",
            "permiți",
            "corect",
            "czy mam",
            "czy to",
            "czy tak",
            "dan voer",
            "dan sla",
            "dan stuur",
            "is dat",
            "deso",
            "ser det",
            "er det",
            "is dit",
            "doğru",
            "elküldjem",
            "elmentsem",
            "envio",
            "erősítsd",
            "frissítsem",
            "göndereyim",
            "gửi",
            "hagyd",
            "så genomför",
            "så sparar",
            "så skickar",
            "så uppdaterar",
            "så kör",
            "jawab",
            "kan ik",
            "kaydedeyim",
            "không",
            "klopt",
            "lähetänkö",
            "lưu",
            "mag ik",
            "moet ik",
            "mám",
            "můžu",
            "napis",
            "napiš",
            "ndiyo",
            "nepotvrdí",
            "nhận",
            "nhật",
            "nihifadhi",
            "nitume",
            "només",
            "näyttääkö",
            "onaylarsan",
            "onaylayana",
            "perlu",
            "potwierdzi",
            "pořádku",
            "päivitänkö",
            "regulă",
            "rendben",
            "rigtigt",
            "riktig",
            "sawa",
            "sembla",
            "setelah",
            "setuju",
            "si ja",
            "ska jag",
            "skal jeg",
            "sopiiko",
            "správně",
            "stämmer",
            "svara",
            "tallennanko",
            "tamam",
            "teenkö",
            "thibitisha",
            "tylko",
            "uygulayayım",
            "uygulayayim",
            "uygun",
            "vahvistat",
            "vain jos",
            "zal ik",
            "zeg ja",
            "zeg maar",
            "çalıştırayım",
            "çaliştirayim",
            "így",
            "đồng",
            "αποθηκεύσω",
            "είναι",
            "εκτελέσω",
            "επιβεβαιώσ",
            "εφαρμόσω",
            "μόνο",
            "πες",
            "προχωρήσω",
            "στείλω",
            "впевнені",
            "застосувати",
            "зберегти",
            "лише",
            "надіслати",
            "правильно",
            "підтвердіть",
            "тільки",
            "хочете",
            "לעדכן",
            "לשלוח",
            "לשמור",
            "נראה",
            "תאשר",
            "תגיד",
            "أحفظه",
            "أخبرني",
            "وسأ",
            "أرسله",
            "أطبقه",
            "أنفذه",
            "بفرستم",
            "تأكيدك",
            "تأیید",
            "تؤكد",
            "تایید",
            "ذخیره",
            "صحيح",
            "कहें",
            "क्या",
            "पुष्टि",
            "भेजूँ",
            "भेजूं",
            "सहमत",
            "सहेजूँ",
            "सहेजूं",
            "নিশ্চিত",
            "পাঠাব",
            "সংরক্ষণ",
            "กรุณายืนยัน",
            "ตกลงไหม",
            "ถูกต้องไหม",
            "บันทึกมั้ย",
            "บันทึกเลยมั้ย",
            "บันทึกเลยไหม",
            "บันทึกไหม",
            "ส่งมั้ย",
            "ส่งเลยมั้ย",
            "ส่งเลยไหม",
            "ส่งไหม",
            "บันทึกไว้ไหม",
            "บันทึกไว้มั้ย",
            "บันทึกไว้เลยไหม",
            "บันทึกไว้เลยมั้ย",
            "ส่งไว้ไหม",
            "ส่งไว้มั้ย",
            "ส่งไว้เลยไหม",
            "ส่งไว้เลยมั้ย",
            "ptám",
            "승인해",
            "실행할까요",
            "이대로",
            "저장할까요",
            "적용할까요",
            "전송할까요",
            "진행할까요",
            "확인해",
        ],
        # added with the rows for the permission, drafts and conditions of the third held-out set
        *[
            "posso",
            "puedo",
            "吗",
            "될까요",
            "되나요",
            "되겠습니까",
            "괜찮을까요",
            "괜찮나요",
            "하시면",
            "할까요",
            "onaylıyor",
            "evet de",
            "uygulayayım",
            "застосувати",
            "зберегти",
            "надіслати",
            "внести",
            "виконати",
            "применить",
            "сохранить",
            "отправить",
            "выполнить",
            "qu'après",
            "qu’après",
            "draft",
            "erst nach deiner",
            "doar dac",
            "numai dac",
            "alleen als",
            "tylko je",
            "tylko gdy",
            "jen pokud",
            "jen když",
            "pouze pokud",
            "pouze když",
            "только если",
            "лише якщо",
            "тільки якщо",
        ],
    ),
    "example": (
        # the same in the other languages of the tables
        *[
            "només",
            "he busca",
            "he cerca",
            "ni he ",
            "একটা উদাহরণ",
            "খুঁজিনি",
            "ver como",
            "l'aspetto",
            "l’aspetto",
            "abych ukázal",
            "at vise",
            "belum mencari",
            "belum mengirim",
            "belum menyimpan",
            "chưa",
            "chỉ để",
            "för att illustrera",
            "för att visa",
            "havainnollistamaan",
            "ikke gjort",
            "ikke søgt",
            "ikke søkt",
            "illustre",
            "inte gjort",
            "inte sökt",
            "kuonyesha",
            "laten zien",
            "megmutassam",
            "nic jsem",
            "nic nie",
            "niets",
            "no he",
            "näyttääkseni",
            "per il·lustrar",
            "per mostrar",
            "sijahifadhi",
            "szemléltes",
            "szemléltet",
            "să arăt",
            "să ilustrez",
            "tidak mencari",
            "tidak mengirim",
            "tidak menyimpan",
            "tonen",
            "untuk ilustrasi",
            "untuk memperlihatkan",
            "untuk menunjukkan",
            "å vise",
            "για να δείξω",
            "για να φανεί",
            "τίποτα",
            "כלום",
            "להמחיש",
            "להראות",
            "توضيح",
            "توضیح",
            "شيئا",
            "لإظهار",
            "للعرض",
            "نشان دادن",
            "نکردم",
            "दिखाने",
            "समझाने",
            "করিনি",
            "দেখানোর",
            "แค่แสดงให้ดู",
            "보여",
        ],
        # added with the rows for drafts, permission in other words, disclaimers and corrections
        *[
            "anschauung",
            "demonstrat",
            "demonstration",
            "illustrat",
            "ilustraci",
            "ne l'ai",
            "ne l’ai",
            "no la",
            "no lo",
            "non ancora",
            "non l'ho",
            "non l’ho",
            "názornost",
            "only how",
            "only what",
            "para enseñar",
            "para exemplificar",
            "para ilustrar",
            "para mostrar",
            "per farti vedere",
            "per illustrare",
            "per mostrare",
            "pokazać",
            "pour illustrer",
            "pour montrer",
            "pra exemplificar",
            "pra ilustrar",
            "pra mostrar",
            "show",
            "todavía no",
            "veranschaulichung",
            "yapmadim",
            "yapmadım",
            "zeigt nur",
            "zu zeigen",
            "демонстрац",
            "иллюстрац",
            "наглядност",
            "не виконав",
            "не вып",
            "не запис",
            "не зберіг",
            "не зберігаю",
            "не иск",
            "не надіслав",
            "не отпр",
            "не сохр",
            "ілюстрац",
            "イメージ",
            "サンプル",
            "仅",
            "只是",
            "没",
            "演示",
            "見本",
        ],
        "illustrat",
        "example",
        "sample",
        "demo",
        "nothing",
        "shape of",
        "holding",
        "yet",
        *_NEGATED,
        "ejemplo",
        "no se",
        "no lo",
        "no he",
        "nada",
        "exemple",
        "rien",
        "n'a",
        "n’a",
        "beispiel",
        "nichts",
        "nicht",
        "exemplo",
        "não",
        "esempio",
        "non è",
        "non ho",
        "nulla",
        "niente",
        "ingenting",
        "пример",
        "ничего",
        "не вып",
        "не сохр",
        "не запус",
        "示例",
        "例子",
        "没有",
        "未",
        "并未",
        "例",
        "ません",
        "だけ",
        # nl, sv, da, nb, cs, pl, uk, fi, hu, ro, ca, tr, el, vi, id, ms, ar, fa, he, hi, bn, th, ko, sw:
        # one of the literals every match of their rows holds, lowercased (Turkish also with "i" for "ı")
        *[
            "chưa",
            "chỉ",
            "contoh",
            "desat",
            "dijalankan",
            "dikirim",
            "disimpan",
            "eksempel",
            "enviat",
            "esimerkki",
            "executat",
            "exempel",
            "exemplu",
            "futtattam",
            "gönderilmedi",
            "göndermedim",
            "har ikke",
            "ingenting",
            "inget",
            "har inte",
            "kaydedilmedi",
            "kaydetmedim",
            "không",
            "kilichohifadhiwa",
            "körts",
            "küldtem",
            "lähetetty",
            "lähettänyt",
            "mengirim",
            "menjalankan",
            "mentettem",
            "menyimpan",
            "mfano",
            "nebylo",
            "neodeslal",
            "nespustil",
            "neuložil",
            "nimic",
            "opgeslagen",
            "przykład",
            "példa",
            "příklad",
            "rulat",
            "sadece",
            "salvat",
            "semmi",
            "sijaendesha",
            "sijahifadhi",
            "skickats",
            "intet",
            "sparats",
            "suoritettu",
            "suorittanut",
            "tallennettu",
            "tallentanut",
            "tehnyt",
            "trimis",
            "uitgevoerd",
            "ukázk",
            "uruchomion",
            "uruchomiłem",
            "verstuurd",
            "voorbeeld",
            "wykonałem",
            "wysłan",
            "yalnızca",
            "yalnizca",
            "zapisan",
            "zapisałem",
            "çalıştırılmadı",
            "çaliştirilmadi",
            "çalıştırmadım",
            "çaliştirmadim",
            "έστειλα",
            "αποθήκευσα",
            "εκτέλεσα",
            "παράδειγμα",
            "τίποτα",
            "виконував",
            "запускав",
            "зберігав",
            "нічого",
            "приклад",
            "בוצע",
            "ביצעתי",
            "דוגמ",
            "הרצתי",
            "נשלח",
            "נשמר",
            "שלחתי",
            "שמרתי",
            "أبحث",
            "أحفظ",
            "أرسل",
            "أنفذ",
            "مثال",
            "مجرد",
            "شيء",
            "vain malli",
            "çalıştırmıyorum",
            "kaydetmiyorum",
            "göndermiyorum",
            "نکردم",
            "يتم",
            "उदाहरण",
            "नहीं",
            "উদাহরণ",
            "সংরক্ষণ",
            "ยังไม่ได้บันทึก",
            "ยังไม่ได้รัน",
            "ยังไม่ได้ส่ง",
            "เพียงตัวอย่าง",
            "แค่ตัวอย่าง",
            "실행하지",
            "아무것도",
            "예시일",
            "예일",
            "저장하지",
            "전송하지",
        ],
        # added with the rows for the disclaimers of the third held-out set
        *[
            "solo come",
            "non ho",
            "ให้ดู",
            "ยังไม่ได้",
            "tylko pokaz",
            "tylko przykład",
            "tylko ilustracja",
            "tylko demonstracja",
            "jedynie",
            "niczego nie",
            "jen ukázka",
            "jen příklad",
            "pouze ukázka",
            "pouze příklad",
            "noch nichts",
            "rien",
            "ainda não",
        ],
    ),
    "retracted": (
        # the same in the other languages of the tables
        *[
            "better",
            "es la",
            "es el",
            "me he",
            "odrzucam",
            "poprawn",
            "zahoď",
            "správn",
            "dikkate alma",
            "doğrusu",
            "błędnie",
            "corectură",
            "corecție",
            "correcció",
            "correctie",
            "düzeltme",
            "greșit",
            "helyesbítés",
            "hibás volt",
            "javítás",
            "klopt niet",
            "trek ik in",
            "koreksi",
            "korekta",
            "korjaus",
            "korreksjon",
            "korrektion",
            "korrigering",
            "makosa",
            "malament",
            "marekebisho",
            "oli väärin",
            "oprava",
            "pembetulan",
            "poprawka",
            "ralat",
            "rettelse",
            "rossz volt",
            "rättelse",
            "sai rồi",
            "salah",
            "si sahihi",
            "sửa lại",
            "var feil",
            "var fel",
            "var forkert",
            "verbetering",
            "was verkeerd",
            "yanliş",
            "yanlış",
            "är fel",
            "đính chính",
            "špatně",
            "źle",
            "διόρθωση",
            "λάθος",
            "виправл",
            "неправильно",
            "помилка",
            "לא נכון",
            "שגוי",
            "תיקון",
            "اشتباه",
            "اصلاح",
            "تصحيح",
            "خطأ",
            "غلط",
            "غير صحيح",
            "ขอแก้",
            "อันนั้นผิด",
            "แก้ไข",
            "수정",
            "잘못",
            "정정",
        ],
        # added with the rows for drafts, permission in other words, disclaimers and corrections
        *[
            "bonne version",
            "buena es",
            "corrección",
            "correct",
            "correcta",
            "correggo",
            "correzione",
            "correção",
            "corrige",
            "corrigindo",
            "corrijo",
            "errado",
            "erreur",
            "estaba mal",
            "está mal",
            "faux",
            "fehler",
            "feil bl",
            "feil kal",
            "forkert",
            "here's the",
            "here's this",
            "here’s this",
            "here’s the",
            "korrektur",
            "korrigiere",
            "n't execute",
            "n't run",
            "n't use",
            "n’t execute",
            "n’t run",
            "n’t use",
            "o certo",
            "right one",
            "use the",
            "use this",
            "wait no",
            "wait, no",
            "wait that",
            "wait, that",
            "wrong",
            "исправл",
            "неверно",
            "неправильно",
            "गलत",
            "ग़लत",
            "रद्द",
            "বাতিল",
            "ভুল",
            "写错",
            "改正",
            "更正",
            "正しくは",
            "訂正",
            "誤り",
            "错的",
        ],
        "scratch",
        "ignor",
        "disregard",
        "retract",
        "cancel",
        "run that",
        "use that",
        "run it",
        "run this",
        "wrong",
        "never mind",
        "instead",
        "olvida",
        "equivoqu",
        "descarta",
        "anula",
        "oublie",
        "annule",
        "tromp",
        "vergiss",
        "zurück",
        "streich",
        "falsch",
        "verwerf",
        "esqueç",
        "desconsidere",
        "engan",
        "lascia perdere",
        "annulla",
        "sbagliat",
        "игнор",
        "забуд",
        "отмен",
        "ошиб",
        "忽略",
        "撤回",
        "无视",
        "作废",
        "弄错",
        "無視",
        "取り消",
        "間違",
        # nl, sv, da, nb, cs, pl, uk, fi, hu, ro, ca, tr, el, vi, id, ms, ar, fa, he, hi, bn, th, ko, sw:
        # one of the literals every match of their rows holds, lowercased (Turkish also with "i" for "ı")
        *[
            "abaikan",
            "fel anrop",
            "blev fel",
            "fel block",
            "błąd",
            "equivocat",
            "feil blokk",
            "feil kall",
            "felejtsd",
            "figyelmen",
            "forkert",
            "was fout",
            "glem",
            "powyższego wywołania",
            "ακύρωσε",
            "se bort fra",
            "glöm",
            "greșeala",
            "greșit",
            "görmezden",
            "huomiotta",
            "ignora",
            "ignorer",
            "ignoruj",
            "ignoră",
            "keliru",
            "khối",
            "lupakan",
            "lệnh",
            "negeer",
            "neplatí",
            "nhầm",
            "nimekosea",
            "oblida",
            "ohita",
            "pomyli",
            "puuza",
            "bỏ qua",
            "quên",
            "salah",
            "splet",
            "strunta",
            "tilbak",
            "tillbaka",
            "tévedtem",
            "uită",
            "unohda",
            "unut",
            "vergeet",
            "verkeerde",
            "väärä",
            "yanlış",
            "yanliş",
            "yaptım",
            "yaptim",
            "yoksay",
            "zapomeň",
            "zapomnij",
            "špatně",
            "έκανα",
            "αγνοήστε",
            "αγνόησε",
            "λάθος",
            "ξέχνα",
            "враховуй",
            "забудь",
            "помили",
            "ігноруй",
            "התעלם",
            "טעות",
            "טעיתי",
            "שכח",
            "תתעלם",
            "اشتباه",
            "انس",
            "تجاهل",
            "خطأ",
            "نادیده",
            "अनदेखा",
            "गलती",
            "ग़लती",
            "नजरअंदाज",
            "नज़रअंदाज़",
            "উপেক্ষা",
            "হয়েছে",
            "ละเว้น",
            "ไม่ต้องสนใจ",
            "무시하세요",
            "무시하시고",
            "무시해",
            "잘못",
        ],
        # added with the rows for the retractions of the third held-out set
        *[
            "zurück",
            "취소",
            "철회",
            "visszavon",
            "پس می",
            "جابه",
            "rút lại",
            "nhầm",
            "take that back",
            "take this back",
            "take it back",
            "scratch that",
            "retract",
            "retiro",
            "anulo",
            "annule",
            "je retire",
            "ritiro",
            "annullo",
            "cancelo",
            "отменяю",
            "отзываю",
            "скасовую",
            "відкликаю",
            "cofam",
            "odwołuję",
            "ruším",
        ],
    ),
}


# One pass over a line finds which kinds' gate texts it holds; a line with none of them (most
# prose) goes at the cost of that pass, and the word table is read only for the kinds it holds.
# and the rows for a yes asked for, leave asked before doing it, and a draft held back
# the nouns of the row that names the block a draft, a preview or a proposal
AFTER_GATES["proposed"] += (
    *["draft", "preview", "proposal", "suggestion", "sketch", "entwurf", "vorschlag", "vorschau", "concept"],
    *["voorstel", "borrador", "propuesta", "brouillon", "proposition", "aperçu", "ébauche", "rascunho", "proposta"],
    *["bozza", "черновик", "набросок", "чернетка", "szkic", "propozycja", "koncept", "návrh", "utkast", "förslag"],
    *["udkast", "forslag", "luonnos", "ehdotus", "taslak", "öneri", "draf", "usulan", "nháp", "πρόχειρο"],
    *["προσχέδιο", "schiță", "ciornă", "propunere", "vázlat", "javaslat", "mock-up", "mockup", "maqueta", "maquette"],
)
AFTER_GATES["proposed"] += (
    *[mark + yes for mark in _YES_OPEN for yes in _YES],
    *["« ", "«\u00a0", "before i", "confirm", "approve", "confírma", "dime que sí", "di que sí"],
    *["antes de", "antes que eu", "prima di", "prima che", "avant de l", "avant que je", "bevor ich", "dass ich"],
    *["dis-moi oui", "dis oui", "conferma", "dimmi di sì", "bestätig", "via libera", "luz verde", "sinal verde"],
    *["feu vert", "green light", "grünes licht", "sag ja", "sag einfach ja", "diga sim", "diz que sim", "скажи"],
    *["en attente", "tant que", "erst wenn", "erst, wenn", "in sospeso", "finché non mi", "until you", "en espera"],
    *["hasta que", "fico aguardando", "até você"],
    *[f"{word} {prep} me" for word in ("happy", "ok", "okay", "fine", "alright") for prep in ("for", "with")],
    *["if that", "if this", "if it", "si ifra", "si fra", "si til", "sig ifra", "sig fra", "sig til", "er det i"],
    *["er det ok", "er det greit", "er det fint", "confirmi"],
)
AFTER_GATES["retracted"] += (
    *["lo anterior", "не учитыва", "se bort fra", "bortse fra", "glem ", "glöm ", "strunta i", "vergeet "],
    *["negeer ", "oublie", "esquece", "dimentica", "forget "],
    *["не считается", "не в счёт", "не в счет", "laisse tomber", "pomiń", "zignoruj", "olej ", "unohda"],
    *["забудь", "забудьте", "lascia stare", "lasciate stare", "lascia perdere", "lasciate perdere", "वाला"],
    *["pas compte", "en cuenta", "considerare", "considerate", "tenere conto", "desconsider", "ignore"],
    *["обращай", "不算", "无效", "pod uwagę", "scratch", "scrap that", "hang on", "hold on"],
)
AFTER_GATES["example"] += (
    *["não pesquisei", "não procurei", "não anotei", "não registrei", "não rodei", "não chamei", "não gravei"],
    *["o aspeto de", "o aspecto de", "o formato de", "ti mostro solo", "com'è fatt", "com’è fatt"],
    *["hiçbir şey", "göründüğünü", "δεν έψαξα", "δεν έτρεξα", "δεν κατέγραψα", "για να δεις", "για να δείτε"],
    "見せるため",
    "はしてい",
    "もしてい",
    "はしてま",
    "もしてま",
    "he desa",
    "he executa",
    "he envia",
    "només perquè",
    "para que ve",
    "he enviado",
    "per mostrar",
    "memorizzato",
    "فقط",
    "ذخیره نشد",
    "csak a formátum",
    "nem kerestem",
    "semmit nem",
    "কিছুই",
    "कुछ भी",
    "nur die form",
    "habe ich nichts",
    "aucun",
    "nenhum",
    "nessun",
)
AFTER_GATES["retracted"] += (
    *["wywołania nie", "bloku nie", "polecenia nie", "chwila", "скасов", "не виконуй", "це помилка", "bỏ lệnh"],
    *["bỏ khối", "bỏ cái", "không dùng"],
    *["nicht ausführen", "nicht verwenden", "nicht beachten", "usijali"],
)
AFTER_GATES["retracted"] += (
    *["misread", "misheard", "got that wrong", "got it wrong", "correct one", "correct version", "right one"],
    *["right version", "stimmt nicht", "stimmt so nicht", "verlesen", "verhört", "vertan", "stattdessen"],
    *["richtige", "letto male", "capito male", "sentito male", "giust", "corrett", "leí mal", "entendí mal"],
    *["escuché mal", "correcta", "mal lu", "mal compris", "la bonne", "li errado", "entendi errado", "ouvi errado"],
    *["correta", "verkeerd", "de juiste", "läste fel", "hörde fel", "den rätta", "læste forkert", "hørte forkert"],
    *["leste feil", "hørte feil", "den rigtige", "den riktige", "pomyłka", "źle ", "poprawna wersja", "špatně"],
    *["správná verze", "неправильно", "правильный вариант", "правильний варіант", "väärin", "oikea on"],
    *["rosszul", "citit greșit", "varianta corectă", "yanlış", "doğrusu", "διάβασα λάθος", "đọc nhầm"],
    *["salah ", "silap", "yang betul", "yang benar", "קראתי לא נכון", "הנכון", "أخطأت في", "غلط خواندم"],
    *["गलत पढ़", "ভুল পড়েছি", "记错了", "看错了", "听错了", "不对", "改成这个", "正确的", "読み間違え"],
    *["聞き間違え", "正しいのは", "잘못", "맞는", "อ่านผิด", "nimesoma vibaya"],
)
AFTER_GATES["proposed"] += (*["niambie", "ukiridhika", "tudo bem se eu", "confirmar antes", "confirmar primeiro"],)
AFTER_GATES["proposed"] += (*["書き換え", "変更", "反映", "あくまで", "okを", "okが", "dai voie", "permiți"],)
AFTER_GATES["example"] += (*["していない", "何も", "見た目の例", "を見せた", "実際には", "gambaran", "tersimpan"],)
AFTER_GATES["retracted"] += (*["visszavonom", "figyelembe", "retrag", "anulez", "beru zpět", "beru zpátky"],)
AFTER_GATES["retracted"] += (*["non va eseguit", "कॉल", "ब्लॉक"],)
AFTER_GATES["retracted"] += ("ruším", "zahazuj")
AFTER_GATES["example"] += ("visning", "ter illustratie", "ter verduidelijking")
AFTER_GATES["example"] += ("demostraci", "démonstrat", "dimostrazion", "demonstraç", " demo", "não fiz")
AFTER_GATES["retracted"] += ("batalkan", "silap", "ยกเลิก")
AFTER_GATES["retracted"] += ("írtam", "stryk")
AFTER_GATES["example"] += ("hakuna", "no estoy llamando", "tal cual", "não rodei", "não o rodei", "não executei")
AFTER_GATES["proposed"] += ("dopiero po", "wersja robocza", "bych", "dokud", "neměním", "можна", "згоди", "oui ou non")
AFTER_GATES["proposed"] += ("yes or no", "sí o no", "ja oder nein", "sì o no", "sim ou não")
AFTER_GATES["retracted"] += ("ไม่ต้องรัน",)
AFTER_GATES["proposed"] += ("saanko", "اجازه")
AFTER_GATES["retracted"] += ("usizingatie", "ไม่ต้องใช้คำสั่ง", "tarik balik")
AFTER_GATES["proposed"] += ("niendelee", "nipe ruhusa")
AFTER_GATES["example"] += ("tampilan", "belum melempar", "belum menyimpan", "belum menjalankan", "belum mengirim")
AFTER_GATES["example"] += ("ada hasil yang", "לא עדכנתי", "רק המחשה")
AFTER_GATES["proposed"] += ("не против", "vind je het goed", "đồng ý", "саме так", "именно так")
AFTER_GATES["example"] += ("نمایش", "هیچ")
AFTER_GATES["proposed"] += (
    *["give me ", "send me ", "let me know", "tell me", "say so", "bescheid", "gib mir", "sag mir", "dammi"],
    *["dimmi", "fammi sapere", "avísame", "dime", "dame el", "dis-moi", "fais-moi signe", "donne-moi"],
    *["me avis", "avise-me", "avisa-me", "me dá", "me dê", "laat ", "säg till", "скажи", "дай знать", "дайте знать"],
    *["дай знати", "дайте знати", "скажіть", "daj znać", "dajcie znać", "dej ", "说一声", "点个头", "点头"],
    *["同意", "确认一下", "言って", "教えて", "말씀", "말하시면", "말해", "das ok", "ein zeichen"],
    *["sano", "szólj", "spune-mi", "haber ver", "kabari", "beritahu", "bagi tahu", "bạn nói", "bạn báo", "תגיד"],
    *["תאשר", "أخبرني", "قل لي", "أعطني", "बता द", "हाँ कह", "πες μου", "δώσε μου"],
)
_KINDS_AFTER: tuple[ProblemKind, ...] = tuple(AFTER_GATES)
# The gates of each kind, and those of a message held back (HELD_BACK), found in one pass
# Pieces of text that each condition of _ON_WISH holds
_WISH_GATES = (
    *("if you", "si quier", "si lo quier", "si prefier", "si tu", "si vous", "wenn du", "wenn sie", "se vuoi"),
    *("se volete", "se preferisci", "se quiser", "se você", "als je", "om du", "hvis du", "jeśli", "если"),
)
_GATE_GROUPS: dict[str, tuple[str, ...]] = {
    **{str(k): v for k, v in AFTER_GATES.items()},
    "held": _HELD_GATES,
    "wish": _WISH_GATES,
}
_LINE_GATES: Gates[str] = Gates(_GATE_GROUPS)


# A clause opened by "if" (up to its comma, colon, dash or the sentence's end), in the table
# languages. Inside one, a retraction's words take nothing back: "Saved. If I got it wrong, tell
# me" invites a correction of a call that ran. Languages that mark the condition on the verb
# alone (Korean -면, Turkish -sa) are not covered.
_CONDITION = regex.compile(
    r"(?<!\w)(?:if|in\s+case|si|se(?!\s+bort\b)|wenn|falls|als|indien|om|hvis|jos|ha|dacă|daca|eğer|αν|εάν|nếu|jika|"
    r"kalau|jikalau|sekiranya|kama|jeśli|jeżeli|jestli|pokud|kdyby|если|ежели|якщо|коли|اگر|إذا|إن|لو|אם|"
    r"अगर|यदि|যদি|ถ้า|หาก|만약)(?!\w)[^.,;:!?—–،؛。，；：！？\n]*"
    r"|(?:如果|要是|假如|もし)[^.,;:!?—–。，；：！？\n]*",
    regex.IGNORECASE,
)


# The clause after a condition's comma, which says what follows then
_THEN_CLAUSE = regex.compile(r"[,，][^.;:!?—–،؛。；：！？\n]*")


def _without_supposed(line: str) -> str:
    """``line`` without its conditions, each with the clause after its comma where it names what
    it supposes in words of its own ("se a CA do seu paladino segurar, a gente simplesmente
    ignora"): a retraction there is only supposed. A condition of a word ("Если честно, я
    ошибся", "If so,") is a turn of speech, and what follows it is said."""
    out, end = [], 0
    for found in _CONDITION.finditer(line):
        cut = found.end()
        if len(found.group().split()) > 2 and (then := _THEN_CLAUSE.match(line, cut)) is not None:
            cut = then.end()
        out.append(line[end : found.start()] + " ")
        end = cut
    return "".join(out) + line[end:] if out else line


# A line that only asks whether what was done is right ("Klopt dat zo?", "Is that correct?").
# After a block it asks leave to make that block; after the last of several blocks of which
# the earlier ones ran, it asks about all of them, done.
CHECK_QUESTION = regex.compile(
    r"^\W{0,3}(?:(?:is|does)\s+(?:that|this|it|everything|all\s+(?:of\s+)?(?:that|this))\s+(?:look\s+)?"
    r"(?:right|correct|ok|okay|good)|(?:all\s+)?(?:correct|right)|klopt\s+(?:dat|dit|het|alles)(?:\s+zo)?|"
    r"stimmt\s+(?:das|es|alles)(?:\s+so)?|passt\s+(?:das|es|alles)(?:\s+so)?|(?:¿\s*)?(?:está|es)\s+(?:todo\s+)?"
    r"(?:bien|correcto)(?:\s+así)?|c['’]est\s+(?:bien\s+)?(?:ça|correct|juste|bon)|(?:está\s+)?(?:tudo\s+)?"
    r"certo(?:\s+assim)?|(?:è\s+)?(?:tutto\s+)?(?:giusto|corretto)(?:\s+così)?|(?:всё|все)\s+(?:верно|"
    r"правильно)|stämmer\s+(?:det|detta|allt)(?:\s+så)?|(?:er\s+)?(?:det|alt)\s+(?:riktig|rigtigt|korrekt))"
    r"[ \t]*[?？][ \t]*$",
    regex.IGNORECASE,
)


# A line that opens by turning to another matter ("By the way, want me to note your budget
# too?", "Кстати, хотите, чтобы я запомнил и бюджет?"): a question in it asks leave for
# something else, not for the block above.
ASIDE = regex.compile(
    r"^\W{0,3}(?:by\s+the\s+way|btw|incidentally|on\s+another\s+note|separately|por\s+cierto|por\s+otro\s+lado|"
    r"au\s+fait|d['’]ailleurs|par\s+ailleurs|übrigens|nebenbei(?:\s+bemerkt)?|apropos|aliás|a\s+propósito|"
    r"por\s+falar\s+nisso|a\s+proposito|tra\s+l['’]altro|кстати|между\s+прочим|кроме\s+того|до\s+речі|"
    r"між\s+іншим|przy\s+okazji|swoją\s+drogą|mimochodem|mimo\s+jiné|trouwens|overigens|förresten|"
    r"för\s+övrigt|forresten|i\s+øvrigt|forøvrig|muuten|ai\s+niin|egyébként|mellesleg|apropo|de\s+altfel|"
    r"παρεμπιπτόντως|με\s+την\s+ευκαιρία|bu\s+arada|بالمناسبة|راستی|ضمناً|ضمنا|אגב|דרך\s+אגב|वैसे|"
    r"ভালো\s+কথা|ว่าแต่|อีกอย่าง|nhân\s+tiện|tiện\s+thể|ngomong-ngomong|omong-omong|kwa\s+njia\s+hiyo|"
    r"顺便(?:说一下|问一下)?|对了|另外|ちなみに|ところで|ついでに|그런데|참고로|그나저나)(?!\w)",
    regex.IGNORECASE,
)


# A sentence that runs through a block makes the block its subject: the line after it goes on
# with the verb ("The snippet you pasted,", block, "is something I'd rather not store."). Only
# that verb, to be or to seem, in the languages whose script has case (a continuation in lower
# case is what is looked at): a chatty reply that wraps a call in its sentence goes on with a
# clause of its own ("Right, adding that,", block, "which means ..."; "Deixa eu guardar isso,",
# block, "pra eu lembrar ..."), and its call runs.
SUBJECT_VERB = regex.compile(
    r"(?:is|isn['’]t|was|wasn['’]t|won['’]t|will\s+not|would\s+not|wouldn['’]t|looks|seems|"
    r"es|no\s+es|son|no\s+son|parece|est|n['’]est|sont|ne\s+sont|ressemble|semble|"
    r"ist|sind|war|wird|sieht|scheint|é|não\s+é|são|não\s+são|è|non\s+è|sono|non\s+sono|sembra|"
    r"zijn|wordt|lijkt|является|не\s+является|это\s+не|не\s+будет|выглядит|кажется|"
    r"є|не\s+є|це\s+не|не\s+буде|виглядає|jest|nie\s+jest|są|nie\s+są|wygląda|"
    r"není|jsou|nejsou|vypadá|är|blir|verkar|er|bliver|virker|ei\s+ole|ei\s+ollut|näyttää|"
    r"este|nu\s+este|nu\s+e|sunt|pare|είναι|δεν\s+είναι|μοιάζει|és|no\s+és|són|sembla|"
    r"adalah|bukan|là|không\s+phải|nem|az\s+nem)(?!\w)",
    regex.IGNORECASE,
)


_POINTS_BACK = regex.compile(r"\b(?:this|these|them|the\s+(?:call|update|change|block)s?)\b", regex.IGNORECASE)


def _aside(line: str) -> bool:
    """Whether ``line`` turns to another matter: it opens with an aside, and what follows is
    neither a bare request for leave ("By the way, shall I go ahead?") nor points back at the
    block ("Btw, want me to save this one?")."""
    opened = ASIDE.match(line)
    if opened is None:
        return False
    rest = line[opened.end() :].lstrip(" \t,，、:：—–-")
    return not (_BARE.search(rest.translate(_HARAKAT)) or _POINTS_BACK.search(rest))


def runs_through(before: str, after: str) -> bool:
    """Whether one sentence runs through the block, as its subject: the line before it stops at
    a comma and the line after it goes on in lower case with the sentence's verb ("The snippet
    you pasted,", block, "is something I'd rather not store."). A question in that sentence
    ("is there anything else?") asks about something else; one in a later sentence asks about
    what the first said ("is a search across your notes. Want me to run one?")."""
    if not before.rstrip(" \t*_").endswith(_COMMAS):
        return False
    rest = after.lstrip(" \t\r\n")
    line = rest.split("\n", 1)[0][:LINE_CHARS]
    end = _SENTENCE_END.search(line)
    sentence = line if end is None else line[: end.end()]
    return rest[:1].islower() and SUBJECT_VERB.match(rest) is not None and "?" not in sentence


_BARE = Words([BARE_QUESTIONS], regex.IGNORECASE | regex.MULTILINE)
# Arabic and Persian vowel marks (the shadda of "أنفّذ"), which the words are written without
_HARAKAT = dict.fromkeys(range(0x064B, 0x0653))
_ASKS = ("?", "？", "؟")
_ASK_MARK = re.compile("[?？؟]").search
_THAI_ASKS = ("ไหม", "มั้ย", "หรือไม่")


def _short_question(line: str) -> bool:
    """Whether ``line`` could be one of :data:`BARE_QUESTIONS`: a short line ending in a
    question mark (or holding a Thai question particle). Only such lines are searched."""
    line = _without_signs(line.strip())
    return len(line) <= 64 and (line.endswith(_ASKS) or _greek_question(line) or any(p in line for p in _THAI_ASKS))


# Emoji and other symbols after a question's mark ("Good to go? 👍") end no sentence of their own.
_SIGNS = frozenset(("So", "Sk", "Cf"))


def _without_signs(line: str) -> str:
    """``line`` without the spaces, emoji and other symbols at its end (read from the end: no
    pattern tried at each position of a long line)."""
    end = len(line)
    while end and (line[end - 1].isspace() or unicodedata.category(line[end - 1]) in _SIGNS):
        end -= 1
    return line[:end]


# Greek asks with a semicolon ("Να το αποθηκεύσω;")
_GREEK_LETTER = regex.compile(r"\p{Greek}")


def _bare_text(line: str) -> str:
    return _without_signs(line).translate(_HARAKAT)


def _greek_question(line: str) -> bool:
    return line.endswith(";") and _GREEK_LETTER.search(line) is not None


# A question of a few words and nothing else, right after the block, has the block for its
# subject whatever its verb ("Akkoord?", "Posso mandar?", "Look right to you?", "Сохраняю?"):
# it has no room for another object. What asks for more ("Anything else?", "Ещё что-нибудь?")
# or opens with a question word ("How was your day?") asks about something else.
_BARE_WORDS = 2
_FOR_MORE = regex.compile(
    r"(?<!\w)(?:else|more|next|other|anything|questions?|otra?s?|más|mas|algo|autre|autres|plus|sonst|noch|"
    r"weiteres|andere[sn]?|mais|outra?s?|altro|altra|altri|ещё|еще|другое|что-нибудь|ще|щось|інше|nog|iets|"
    r"meer|anders|jeszcze|coś|inne|więcej|ještě|něco|další|mer|något|annat|mere|noget|andet|mer|noe|annet|"
    r"muuta|muita|lisää|más|valami|egyéb|mai|altceva|başka|daha|lagi|lain|nữa|khác|άλλο|κάτι|آخر|أخرى|دیگه|دیگر|"
    r"עוד|और|আর|อีก|또|더|다른|别的|其他|还有|还要|他に|ほかに|ほか|何か)(?!\w)",
    regex.IGNORECASE,
)
# Words that ask when, where or who: a short question holding one asks about something else
# ("কবে গৃহপ্রবেশ?", "When's the party?"), never leave for the block
_ASKS_ELSE = regex.compile(
    r"(?<!\w)(?:when|where|who|cuándo|dónde|quién|quand|où|wann|wo|wer|quando|onde|quem|dove|chi|когда|где|кто|"
    r"коли|хто|wanneer|waar|kiedy|gdzie|kto|kdy|kde|kdo|när|vem|når|hvor|hvem|milloin|missä|kuka|mikor|hol|când|"
    r"unde|cine|quan|nerede|kim|ne\s+zaman|πότε|πού|ποιος|kapan|bila|di\s+mana|siapa|khi\s+nào|bao\s+giờ|ở\s+đâu|"
    r"متى|أين|کجا|מתי|איפה|कब|कहाँ|कौन|কবে|কোথায়|কে|lini|wapi|nani|"
    # (or whether to begin something, the lesson or the plan: "¿Empezamos?", "On commence ?")
    r"empezamos|comenzamos|começamos|commençons|on\s+commence|iniziamo|cominciamo|beginnen\s+wir|"
    r"fangen\s+wir\s+an|начн[её]м|shall\s+we\s+(?:start|begin))(?!\w)|什么时候|哪里|哪儿|几点|几号|いつ|どこ|언제|어디|누구",
    regex.IGNORECASE,
)
_QUESTION_WORD = regex.compile(
    r"(?<!\w)(?:how|what|when|where|who|whom|whose|why|which|cómo|qué|cuándo|dónde|quién|por\s+qué|cuál|"
    r"comment|quoi|quand|où|qui|pourquoi|quel\w*|wie|was|wann|wo|wer|warum|welche\w*|como|quando|onde|quem|"
    r"porque|qual|come|cosa|dove|chi|perché|как|что|когда|где|кто|почему|какой|як|що|коли|де|хто|чому|hoe|wat|"
    r"wanneer|waar|wie|waarom|welke|jak|co|kiedy|gdzie|kto|dlaczego|kdy|kde|kdo|proč|hur|vad|när|var|vem|varför|"
    r"hvordan|hvad|hvor|hvem|hvorfor|miten|mitä|milloin|missä|kuka|miksi|hogy|mi|mikor|hol|ki|miért|cum|ce|când|"
    r"unde|cine|de\s+ce|nasıl|ne|neden|nerede|kim|bagaimana|apa|kapan|di\s+mana|siapa|mengapa|kenapa|πώς|τι|πότε|"
    r"πού|ποιος|γιατί|كيف|ماذا|ما|متى|أين|من|لماذا|چطور|چه|کی|کجا|چرا|איך|מה|מתי|איפה|מי|למה|कैसे|क्या|कब|कहाँ|कौन|"
    r"क्यों|cómo|怎么|什么|为什么|哪|谁|どう|何|なぜ|いつ|どこ|誰|어떻게|뭐|무엇|언제|어디|누구|왜)(?!\w)",
    regex.IGNORECASE,
)


def _bare_shape(line: str, most: int = _BARE_WORDS) -> bool:
    """Whether ``line`` (a short question) is only ``most`` words or fewer in a script written
    with spaces and asks about nothing but the block: not for more, not with a question word,
    not about the one it is asked of ("You okay?"). Scripts written without spaces are left to
    :data:`BARE_QUESTIONS`: their words cannot be counted here."""
    text = _without_signs(line).rstrip("?？؟;").strip(" \t¿")
    words = text.split()
    # a word more where one of them is the block as the object, or how it is written ("¿Lo
    # confirmo así?"); not a subject such as "that" ("Did that help?")
    if most and len(words) == most + 1 and _OBJECT_BACK.search(text):
        most += 1
    elif _VIETNAMESE.search(text) and _LATER.search(text) is None:
        most *= 2  # Vietnamese writes each syllable apart: "Lưu vậy được chứ?" is two words
    if not words or len(words) > most or UNSPACED.search(text):
        return False
    return (
        _FOR_MORE.search(text) is None
        and _QUESTION_WORD.search(text) is None
        and _YOU_FIRST.match(text) is None
        and _SENTENCE_END.search(text) is None
        and _ASKED_DONE.search(text) is None
    )


# A verb in the past in a question of a word or two ("Menikö oikein?", "Onnistuiko?", "Did it?"):
# it asks whether what was done came out right, not leave to do it. (Finnish asks with -ko/-kö
# on the verb; its past ends in an -i that does not double a vowel, "sopiko" against "sopiiko".)
_ASKED_DONE = regex.compile(r"(?<!\w)(?:did|went|worked|\w+[^\W\di]i(?:ko|kö)(?:han|hän)?)(?!\w)", regex.IGNORECASE)


_VIETNAMESE = regex.compile(r"[đươĐƯƠ\u1ea0-\u1ef9]")
_OBJECT_BACK = regex.compile(
    r"^(?:lo|la|los|las|le|les|l['’])(?!\w)|(?<!\w)(?:así|ainsi|comme\s+ça|assim|così|so|zo|så|так|like\s+(?:this|that)|this\s+way|"
    r"begini|begitu|vậy|thế)(?!\w)",
    regex.IGNORECASE,
)
UNSPACED = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}]")
_YOU = (
    r"(?:you|u|ya|tu|tú|du|vous|usted|ustedes|você|vocês|voi|ty|ты|вы|ти|ви|jij|jullie|ni|dere|sen|siz|kamu|anda|"
    r"kau|bạn|εσύ|εσείς|أنت|أنتم|تو|شما|אתה|את|אתם|तुम|आप|te|ön|tu)(?!\w)"
)
_YOU_FIRST = regex.compile(_YOU, regex.IGNORECASE)
# A report that the block is done, the first sentence after it: a word or two and a full stop.
DONE = regex.compile(
    r"^\W{0,3}(?:done|saved|updated|noted|stored|added|sent|got\s+it|all\s+set|all\s+done|listo|lista|hecho|guardado|"
    r"anotado|actualizado|enviado|fait|noté|c['’]est\s+noté|c['’]est\s+fait|enregistré|envoyé|erledigt|gespeichert|"
    r"fertig|notiert|gemacht|pronto|feito|salvo|anotado|atualizado|fatto|salvato|aggiornato|готово|сохранено|"
    r"записал[аи]?|сделано|збережено|зроблено|klaar|opgeslagen|gedaan|genoteerd|zrobione|zapisane|gotowe|tamam|"
    r"tamamdır|kaydedildi|kaydettim|not\s+alındı|not\s+edildi|sudah|selesai|beres|hotovo|uloženo|klart|sparat|klar|gemt|tehty|tallennettu|"
    r"valmis|gata|salvat|έγινε|αποθηκεύτηκε|xong|xong\s+rồi|đã\s+lưu|تم|تم\s+الحفظ|انجام\s+شد|בוצע|נשמר|हो\s+गया|"
    r"সেভ\s+হয়েছে|kész|elmentve|已保存|已更新|已记录|好了|完成了?|保存しました|更新しました|完了|저장했어요|저장했습니다|완료|"
    # the Scandinavian, Polish and Indic participles of keeping ("Lagret.", "Noterat.", "सेव हो गया।")
    r"lagret|lagra|notert|oppdatert|noteret|opdateret|noterat|uppdaterat|zapisano|zanotowano|"
    r"(?:सेव|अपडेट|नोट|दर्ज)\s+(?:हो\s+गया|कर\s+दिया|कर\s+लिया)|सहेज\s+(?:लिया|दिया)|सहेजा\s+गया|"
    r"(?:সেভ|নোট)\s+(?:করা\s+হয়েছে|করেছি|করে\s+রেখেছি))"
    r"[ \t]*[.!。！।][ \t]|^\W{0,3}(?:已保存|已更新|已记录|好了|完成了?|保存しました|更新しました|完了)[。！]|"
    # Thai ends a sentence with a space, not a mark ("บันทึกแล้วครับ ถูกต้องไหมครับ?")
    r"^\W{0,3}(?:(?:บันทึก|อัปเดต|เพิ่ม|ส่ง|จด)(?:ไว้|ให้)?แล้ว|เรียบร้อย(?:แล้ว)?)(?:นะ)?(?:ครับ|ค่ะ|คะ)?[ \t]",
    regex.IGNORECASE,
)

# A report, on the line directly before a block, that the model has made it or is making it
# now ("I've saved your new address.", "Saving that now:", "C'est noté !", "已经帮你记下了。"):
# a short question after such a block checks in about what was done ("Sound good?", "Okay?"),
# it does not ask leave to do it. Longer leave asked ("Say the word and I'll run it.") still
# holds the block: the two contradict each other, and holding it loses nothing in silence. A negation, a
# condition or a wish in the line ("I haven't saved it", "I'd save it", "if you want") makes it
# no report, and a question is none.
# Matched only where a sentence or clause starts (see reports_done): tried at every position of
# a line, its gapped rows cost some 60 us a line.
REPORTED = regex.compile(
    r"[\W_]{0,3}(?:"
    # English
    r"i['’]ve\s+(?:just\s+|now\s+|also\s+|already\s+)?(?:saved|noted|stored|recorded|added|updated|logged|"
    r"jotted|changed|replaced|corrected|filed|archived|remembered|made\s+a\s+note)|"
    r"i\s+have\s+(?:just\s+|now\s+|also\s+|already\s+)?(?:saved|noted|stored|recorded|added|updated|logged)|"
    r"(?:i['’]m\s+)?(?:saving|noting|storing|recording|adding|updating|logging|filing|jotting)\b[^.!?\n]{0,60}?"
    r"\b(?:now|right\s+away)\b|(?:saved|noted|stored|logged|done)\s*[.!]|"
    # (the simple past, and a participle closing a lead after a word of assent: "I saved it:",
    # "Got it, stored:")
    r"i\s+(?:just\s+|also\s+|already\s+)?(?:saved|noted|stored|recorded|added|updated|logged|filed|changed|"
    r"corrected|jotted\s+down)(?!\w)|(?:saved|noted|stored|logged|updated|added)\s*[:：]|"
    # Spanish, French, Portuguese, Italian
    r"(?:ya\s+)?(?:lo\s+|la\s+|te\s+lo\s+|te\s+la\s+)?he\s+(?:guardado|anotado|apuntado|actualizado|añadido|"
    r"agregado|registrado|cambiado|corregido)|(?:guardado|anotado|apuntado)\s*[.!]|"
    # (the preterite, as much of Latin America reports a step just done: "Lo guardé:", "Ya te lo anoté")
    r"(?:ya\s+)?(?:lo\s+|la\s+|los\s+|las\s+|te\s+lo\s+|te\s+la\s+)?(?:guardé|anoté|apunté|actualicé|añadí|agregué|"
    r"registré|cambié|corregí)(?!\w)|(?:ya\s+)?qued[óo]\s+(?:guardad|anotad|apuntad|registrad)[oa]s?(?!\w)|"
    r"j['’](?:l['’]|les\s+)?ai\s+(?:bien\s+|tout\s+|déjà\s+)?(?:enregistré|noté|ajouté|mis\s+à\s+jour|sauvegardé|modifié|corrigé|retenu)|"
    r"je\s+l['’]ai\s+(?:bien\s+)?(?:enregistré|noté|ajouté|sauvegardé)|c['’]est\s+noté|"
    r"(?:já\s+)?(?:salvei|anotei|guardei|atualizei|registrei|adicionei|acrescentei|alterei|corrigi)|"
    r"(?:anotado|salvo)\s*[.!]|"
    r"(?:l['’]\s*)?ho\s+(?:già\s+)?(?:salvato|annotato|aggiornato|aggiunto|registrato|segnato|memorizzato|"
    r"modificato|corretto)|(?:salvato|annotato|segnato)\s*[.!]|"
    # German, Dutch
    r"(?:ich\s+hab(?:e|['’]s?)?|hab(?:e|['’]s?)?\s+ich)\s+[^.!?\n]{0,60}?(?:gespeichert|notiert|eingetragen|aktualisiert|hinzugefügt|vermerkt|"
    r"abgelegt)|(?:gespeichert|notiert|eingetragen|vermerkt)\s*[.!]|"
    r"(?:ik\s+heb|heb\s+ik)\s+[^.!?\n]{0,60}?(?:opgeslagen|genoteerd|bijgewerkt|toegevoegd)|(?:opgeslagen|genoteerd)\s*[.!]|"
    # Swedish, Danish, Norwegian
    r"(?:jag|jeg|eg)\s+har\s+(?:nu\s+|nå\s+|redan\s+|allerede\s+|också\s+|også\s+)?(?:sparat|noterat|uppdaterat|"
    r"skrivit\s+in|lagt\s+(?:in|inn|ind|till|til)|gemt|lagret|lagra|noteret|notert|opdateret|oppdatert|tilføjet)(?!\w)|"
    # Russian, Ukrainian, Polish, Turkish, Indonesian
    r"(?:я\s+)?(?:уже\s+)?(?:сохранил|записал|обновил|добавил|отметил|запомнил|внёс|внес|исправил)а?(?!\w)|"
    r"(?:я\s+)?(?:зберіг|зберегла|записав|записала|оновив|оновила|додав|додала)(?!\w)|"
    r"(?:zapisał|zanotował|dodał|zaktualizował)(?:em|am)(?!\w)|"
    r"(?:už\s+)?(?:jsem\s+)?(?:uložil|zapsal|poznamenal|přidal|aktualizoval|zaznamenal|upravil)[ao]?\s+jsem(?!\w)|"
    r"[^.!?\n]{0,60}?(?:kaydettim|not\s+ettim|not\s+aldım|ekledim|güncelledim|not\s+alındı|not\s+edildi|eklendi|"
    r"güncellendi)(?!\w)|"
    r"(?:aku|saya)?\s*(?:sudah|udah|telah)\s+(?:aku\s+|saya\s+|ku)?(?:simpan|catat|perbarui|tambahkan|disimpan|dicatat)"
    r")",
    regex.IGNORECASE,
)
_CLAUSE_STARTS = regex.compile(r"[.!。！,，][ \t]*")
# Chinese, Japanese and Korean reports, found anywhere in the line (no spaces mark their clauses).
_REPORTED_CJK = regex.compile(
    r"已(?:经)?(?:帮你)?(?:保存|记下|记录|更新|添加|修改|存好|存下)|(?:记下|记好|存好|存下|保存好|更新好)了|"
    r"(?:保存|記録|登録|更新|追加|メモ)しました|覚えました|(?:저장|기록|메모|업데이트)했(?:어요|습니다|어)"
)
_NO_REPORT = regex.compile(
    # (Turkish "not" is a note: "Not alındı.", "Not aldım:" report one taken)
    r"(?<!\w)(?:not(?!\s+(?:alındı|aldım|aldık|alınmıştır|alınmış|alıyorum|alacağım|edildi|ettim|ediyorum|edeceğim|düştüm|düşüldü)(?!\w))|never|nothing|yet|"
    r"if|would|could|might|nicht|noch|nichts|kein\w*|wenn|falls|würde|wäre|pas|rien|"
    # (Czech "si" after its verb is a reflexive, not an "if": "Uložím si to:", "Zapamatuji si to:")
    r"(?<!\p{L}(?:ím|ám|ji|u)\s)si|jamais|encore|non|nunca|nada|todavía|aún|não|ainda|se|ancora|mai|не|ни|ещё|еще|если|бы|ще|якщо|nie|jeszcze|"
    r"jeśli|gdyby|kdyby\w*|pokud|jestli|niet|nog|als|değil|henüz|eğer|belum|tidak|kalau|jika|"
    # the change named as only planned ("voici la mise à jour prévue.", "here's the planned change.")
    r"(?:planned|proposed)\s+(?:change|update|edit)|(?:mise\s+à\s+jour|modification|changement)\s+(?:prévue?|proposée?)|"
    r"(?:geplante|vorgesehene|vorgeschlagene)\s+(?:änderung|aktualisierung)|(?:cambio|actualización|modificación)\s+"
    r"(?:previst[oa]|propuest[oa])|(?:modifica|aggiornamento)\s+(?:previst[oa]|propost[oa])|"
    r"(?:alteração|atualização|mudança)\s+(?:previst[oa]|propost[oa]))(?!\w)|n['’]t\b|"
    r"没|未|不|如果|还没|ない|ません|もし|前に|안\s|않|못",
    regex.IGNORECASE,
)

_LEAD = " \t*_(¿¡\"'“„«"
# What points back at the block from a clause: a pronoun for it, or "like this" (not the words
# that are also articles: "si repasamos la lista").
_BACK = regex.compile(
    r"(?<!\w)(?:it|this|that|these|them|like\s+this|lo|l['’]|esto|eso|así|ça|cela|ceci|ainsi|es|dies|so|"
    r"isso|isto|assim|questo|quello|così|это|его|её|их|так|het|dit|dat|zo|det|detta|så|tego|bunu|böyle|ini|"
    r"itu|begitu|begini|vậy|thế)(?!\w)",
    regex.IGNORECASE,
)
# A clause whose subject is "we" or "you", not the one who wrote the block: a step of their own.
_THEIR_STEP = regex.compile(
    r"(?<!\w)(?:we|you|nosotros|tú|usted|(?<=\bsi\s)on|nous|tu|vous|wir|du|ihr|a\s+gente|nós|você|noi|voi|мы|ты|"
    r"вы|wij|jij|vi)(?!\w)|\w{2,}(?:amos|emos|imos|iamo)(?!\w)",
    regex.IGNORECASE,
)
_STEP_WORDS = 3


def _if_clause(line: str) -> str | None:
    """The words of a question's "if" clause after its "if" ("... si mañana repasamos ..."); None
    where the line asks no question or has no such clause."""
    if not line.rstrip().endswith(_ASKS):
        return None
    clause = _CONDITION.search(line)
    return None if clause is None else " ".join(clause.group().split()[1:])


def _another_step(line: str) -> bool:
    """Whether a question past a blank line after a block asks about a step of its own: its "if"
    clause spells out what "we" or "you" would do and points nowhere back at the block ("¿Te
    parece bien si mañana repasamos el presupuesto del viaje?"). "Is it okay if I save it like
    this?" asks leave for the block."""
    words = _if_clause(line)
    if words is None:
        return False
    return len(words.split()) >= _STEP_WORDS and _THEIR_STEP.search(words) is not None and _BACK.search(words) is None


# The writer as a clause's subject
_MINE = regex.compile(r"(?<!\w)(?:I|ich|je|j['’]|eu|io|я|ik|jag|jeg|tôi|mình|saya|aku)(?!\w)", regex.IGNORECASE)


def _my_step(line: str) -> bool:
    """Whether a question after a block asks leave for it in an "if" clause whose subject is the
    writer and which points back at the block ("Ist es okay, wenn ich das so speichere?", "Is it
    okay if I save it like this?"): the other side of :func:`_another_step`."""
    words = _if_clause(line)
    if words is None:
        return False
    mine = _MINE.search(words) is not None or _MINE_DROPPED.match(words) is not None
    return mine and _BACK.search(words) is not None and _TOO.search(words) is None


# Where the pronoun is dropped, the writer is the subject of a verb in the first person that a
# pronoun for the block opens ("Va bene se lo faccio?", "¿Te parece bien si lo cambio?")
_MINE_DROPPED = regex.compile(r"(?:lo|la|los|las|l['’])\s*[^\W\d_]{2,}o(?!\w)", regex.IGNORECASE)


# "Too": a step besides the block ("... if I set a reminder for that too?")
_TOO = regex.compile(
    r"(?<!\w)(?:too|also|as\s+well|auch|ebenfalls|aussi|également|también|además|anche|pure|também|тоже|также|ook|"
    r"också|også|też|taky|také|myös|is|și|de\s+asemenea|da|juga|cũng|επίσης|也|还|も|도)(?!\w)",
    regex.IGNORECASE,
)


# A question tagged onto a statement of its own ("Mañana te pregunto cómo fue, ¿vale?",
# "周五下午我提醒你一下，好吗？"), or set after it as a sentence of its own ("Te aviso también
# cuando se acerque la fecha. ¿Vale?"): the tag asks about that statement.
_TAG = regex.compile(
    r"[,，、][ \t]*(?P<tag>[^,，、\n]{1,24})$|(?<=\w)(?:[.!][ \t]+|[。！][ \t]*)(?P<tag>[^,，、.!。！\n]{1,24})$"
)
_STATEMENT_WORDS = 3
_STATEMENT_CHARS = 6
# What points back at a block in the scripts written without spaces
_BACK_CJK = regex.compile(r"这|這|它|此|これ|この|こう|それ|이거|이것|이렇게|그거|그것")


def _tagged(line: str) -> tuple[str, str] | None:
    """A question that ends in a tag of a word or two after a comma ("..., okay?"), as its
    statement and its tag; None for any other line."""
    if _ASK_MARK(line) is None:
        return None  # (the question's mark ends the line: a line without one asks nothing)
    text = _without_signs(line.strip())
    if not text.endswith(_ASKS):
        return None
    tag = _TAG.search(text)
    if tag is None or len(tag.group("tag").split()) > _BARE_WORDS:
        return None
    return text[: tag.start()].strip(" \t¿¡"), tag.group("tag")


def _tag_on_block(line: str, tight: bool = False) -> bool:
    """Whether a question past a blank line after a block is a tag on the writer's own statement
    of making it, a pronoun or "so" pointing back at it ("So speichere ich das, okay?", "I'll keep
    it like that, okay?"): leave asked, unless the statement reports it done. In the block's own
    paragraph (``tight``) a consent word for the tag and a word for how the block is written are
    enough, whoever the subject ("Simpan begini, boleh?")."""
    tagged = _tagged(line)
    if tagged is None:
        return False
    statement, tag = tagged
    return (
        len(statement.split()) <= _TAGGED_WORDS
        and _BACK.search(statement) is not None
        and _LATER.search(statement) is None
        and (
            _MINE.search(statement) is not None
            or _OBJECT_BACK.match(statement) is not None
            or (tight and _BARE.search(_bare_text(tag)) and _OBJECT_BACK.search(statement) is not None)
        )
        and not reports_done(statement)
        and _PAST.search(statement) is None
    )


_TAGGED_WORDS = 6
_COMMAS = (",", "，", "、")
_LAST_COMMA = regex.compile("(?r)[" + "".join(_COMMAS) + "]")


def _checks_then_asks(line: str) -> bool:
    """Whether a question checks the block, then asks leave to make it in a clause of its own
    ("Passt das so, soll ich's speichern?", "Is that right, shall I save it?"): the leave is for
    the writer's step still to come, whatever the check says of what is written."""
    if not any(comma in line for comma in _COMMAS):
        return False
    text = _without_signs(line.strip())
    comma = _LAST_COMMA.search(text)
    if comma is None or not text.endswith(_ASKS):
        return False
    head, tail = text[: comma.start()].strip(), text[comma.end() :].strip()
    return CHECK_QUESTION.match(head + "?") is not None and _BARE.search(_bare_text(tail))


# "Or" opening a question's last clause, after a comma ("Shall I save it, or would you rather
# change it?", "저장해도 괜찮을까요, 아니면 내용을 조금 고칠까요?")
# "Or" in the languages of the tables, offering the other answer to a question
_OR_WORDS = (
    r"(?:(?:or|oder|ou|o|oppure|of|eller|или|або|czy|albo|nebo|alebo|vagy|sau|yoksa|veya|atau|hay|hoặc|vai|tai|ή|أو|یا|או|या|"
    r"নাকি|หรือ|아니면)(?!\w)|还是|還是|或者|それとも)"  # (no spaces part words where the last are written)
)
_OR_CLAUSE = regex.compile(r"[,，、][ \t]*" + _OR_WORDS, regex.IGNORECASE)


# A sentence that opens on "or", offering the other answer to the question before it
_OR_SENTENCE = regex.compile(r"[\W_]{0,3}" + _OR_WORDS, regex.IGNORECASE)


def _bare_then_or(line: str) -> str | None:
    """The first sentence of a line that asks leave for the block in a bare question or by its
    grammar (:func:`_asks_my_step`), then offers the other answer in a question of its own opening
    on "or" ("Запустить? Или посчитаете сами?", "Run it? Or is the formula enough?", "Ti va che lo
    registri? Oppure preferisci che aspetti?"): the first question is the block's, whatever the
    other answer is; None for any other line."""
    text = line.strip()
    # (most lines ask nothing, or once: found by the marks before any pattern is tried)
    marks = [i for i in (text.find("?"), text.find("？")) if i >= 0]
    if not marks or not text.endswith(_ASKS) or _ASK_MARK(line) is None:
        return None
    cut = min(marks) + 1
    first, rest = text[:cut].strip(), text[cut:].strip()
    if not rest or _OR_SENTENCE.match(rest) is None or len(sentences(rest)) != 1:
        return None
    if not (_BARE.search(_bare_text(first)) or _bare_shape(first, 1) or _asks_my_step(first) is not None):
        return None
    return first


def _asks_or_offers(line: str) -> bool:
    """Whether the last sentence of a line after a block asks leave to make it in a bare question,
    then offers the other answer after a comma and "or": the question is the block's, whatever
    the other answer is."""
    if _ASK_MARK(line) is None or not any(comma in line for comma in _COMMAS):
        return False
    text = _without_signs(sentences(line.strip())[-1].strip())
    if not text.endswith(_ASKS):
        return False
    clause = _OR_CLAUSE.search(text)
    if clause is None or not _BARE.search(_bare_text(text[: clause.start()].strip() + "?")):
        return False
    # (an other answer that asks for more, a later time or a step of "we" or "you" offers another
    # step: "Okay, or shall we plan the trip now?", "Alright, or do you want another one?")
    other = text[clause.end() :]
    return not any(
        words.search(other) is not None for words in (_FOR_MORE, _TOO, _LATER, _THEIR_STEP, _ANOTHER, _YOU_ANYWHERE)
    )


_ANOTHER = regex.compile(r"(?<!\w)(?:another|one\s+more)(?!\w)", regex.IGNORECASE)


# Chinese, which parts no words with spaces, asks a question of a word or two as a verb of one or
# two characters, with "要" (shall) or a particle ("要存吗？", "记吧？"); "了" or "过" after it
# tells it done ("记对了吗？" asks whether it came out right)
_ZH_BARE = regex.compile(
    r"[\W_]{0,3}(?:要不要|要|需要|可以)?我?(?:[^\P{Han}了过别其还什哪谁怎]){1,2}(?:吗|吧|么)[ \t]*[?？][ \t]*$"
)
# A question that names the writer's own step on the block as still to come, in a clause of
# "before" ("Est-ce que j'ai bien noté l'heure, avant de le sauvegarder ?", "Did I get the name
# right before I save it?"): whatever it checks, the step waits on the answer.
_BEFORE_MY_STEP = regex.compile(
    r"(?<!\w)(?:before\s+(?:I\s+)?\w+\s+(?:it|this|that|them)|avant\s+(?:de|que\s+je)\s+(?:le|la|les|l['’])\s*\w+|"
    r"bevor\s+ich\s+(?:es|das|sie|['’]s)\s+\w+|antes\s+de\s+\w+(?:lo|la|los|las)|antes\s+de\s+(?:o|a|os|as)\s+\w+|"
    r"prima\s+di\s+\w+(?:lo|la|li|le)|voordat\s+ik\s+(?:het|dit|dat)\s+\w+|innan\s+jag\s+\w+\s+(?:det|den)|"
    r"før\s+(?:jeg|eg)\s+\w+\s+(?:det|den))(?!\w)",
    regex.IGNORECASE,
)
_BEFORE_GATES = ("before", "avant", "bevor", "antes", "prima", "voordat", "innan", "før")


def _before_my_step(line: str) -> bool:
    """Whether a question after a block names the writer's step on it as still to come (see
    :data:`_BEFORE_MY_STEP`), and asks for nothing more."""
    if not line.rstrip().endswith(_ASKS):
        return False
    low = line.lower()
    if not any(gate in low for gate in _BEFORE_GATES):
        return False
    # (in the question itself: "Prima di salvarlo ho tolto il vecchio orario. Tutto chiaro?" tells
    # what was done before)
    question = sentences(line)[-1]
    return (
        _BEFORE_MY_STEP.search(question) is not None
        and _FOR_MORE.search(question) is None
        and _TOO.search(question) is None
    )


# A verb told as done ("I saved it like this, okay?"): no leave is asked for what was done
_PAST = regex.compile(
    r"(?<!\w)(?:\w+ed|did|made|kept|sent|put|got|wrote|have|has|had|['’]ve|habe|hab|hat|ai|he|ha|hecho|"
    r"guardé|anoté|fatto|ho|salvei|anotei|guardei)(?!\w)",
    regex.IGNORECASE,
)
# Words for a later time: a one-word question of them past a blank line ("Tomorrow?", "Jutro?")
# proposes a meeting, not the block
_LATER = regex.compile(
    r"(?<!\w)(?:tomorrow|tonight|later|soon|today|weekend|morgen|heute|später|bald|wochenende|mañana|hoy|luego|"
    r"demain|ce\s+soir|plus\s+tard|domani|stasera|dopo|amanhã|hoje|depois|logo|завтра|сегодня|вечером|потом|"
    r"jutro|dziś|dzisiaj|wieczorem|później|zítra|dnes|později|morgen|vanavond|straks|imorgon|ikväll|senare|"
    r"i\s+morgen|i\s+aften|senere|huomenna|tänään|illalla|myöhemmin|holnap|később|mâine|azi|diseară|"
    r"yarın|bugün|akşam|sonra|besok|nanti|malam|ngày\s+mai|mai|tối\s+nay|αύριο|απόψε|غدا|الليلة|فردا|מחר|कल|আগামীকাল|"
    r"พรุ่งนี้|kesho|明天|今晚|明日|今夜|내일|오늘|next\s+time|la\s+próxima\s+vez|la\s+prochaine\s+fois|nächstes\s+mal|"
    r"la\s+prossima\s+volta|da\s+próxima\s+vez|в\s+следующий\s+раз|下次|次回|다음에)(?!\w)",
    regex.IGNORECASE,
)


def _own_tag(line: str) -> bool:
    """Whether a question past a blank line after a block is a tag on a statement that points
    nowhere back at the block: the statement has words enough of its own."""
    tagged = _tagged(line)
    if tagged is None:
        return False
    statement = tagged[0]
    if UNSPACED.search(statement):
        return len(statement) >= _STATEMENT_CHARS and _BACK_CJK.search(statement) is None
    if len(statement.split()) < _STATEMENT_WORDS:
        return False
    # a pronoun for the block in a statement of another time, or of what was done, asks nothing of
    # it; nor does one the next step works with ("Y con eso te monto un plan, ¿vale?")
    return (
        _BACK.search(_WITH_IT.sub(" ", statement)) is None
        or _LATER.search(statement) is not None
        or _PAST.search(statement) is not None
    )


# The block's result as what a next step works with, not its object: "con eso", "with that", "damit"
_WITH_IT = regex.compile(
    r"(?<!\w)(?:(?:with|con|avec|mit|com|met|с|z)\s+(?:it|this|that|eso|esto|ello|ça|cela|ceci|dem|das|isso|isto|"
    r"questo|quello|ciò|этим|тем|tym|dat|dit)|damit|dadurch|daarmee|daarmede|così\s+facendo)(?!\w)",
    regex.IGNORECASE,
)


# A line that opens with the action on a yes, after a question ("If so, I'll save it.", "Si
# oui, je lance.", "Dann speichere ich es."): the condition, or "then", and the writer's verb.
_ON_ANSWER = regex.compile(
    r"[\W_]{0,3}(?:if\s+(?:so|yes|that['’]s\s+(?:right|correct|it))|(?:and\s+)?then|"
    r"si\s+(?:oui|c['’]est\s+(?:bien\s+)?(?:ça|le\s+cas|bon))|alors|si\s+(?:es\s+así|sí|está\s+bien)|"
    r"entonces|wenn\s+(?:ja|das\s+stimmt|es\s+stimmt)|falls\s+ja|dann|se\s+(?:sim|for\s+isso|sì|è\s+così)|então|"
    r"allora|если\s+да|тогда|jeśli\s+tak|wtedy|als\s+dat\s+klopt|dan|om\s+ja|så|hvis\s+ja|jos\s+(?:kyllä|niin)|"
    r"ha\s+igen|dacă\s+da|atunci|αν\s+ναι|evetse|kalau\s+(?:ya|iya|benar)|nếu\s+đúng|nếu\s+vậy|in\s+that\s+case|"
    r"en\s+ese\s+caso|dans\s+ce\s+cas|in\s+(?:dem|diesem)\s+fall|in\s+tal\s+caso|nesse\s+caso|в\s+таком\s+случае|"
    r"w\s+takim\s+razie|in\s+dat\s+geval|i\s+så\s+fall|i\s+så\s+fald|öyleyse|o\s+zaman)"
    # then the writer: a first-person pronoun or a pronoun for the block within two words, or a
    # verb in the first person where the pronoun is dropped ("Si es así, guardo.", "Jeśli tak, zapiszę.")
    r"(?!\w)[ \t,]*(?:(?:[^\W\d_]+[ \t]+){0,2}?(?:I['’]ll|I|je|j['’]|ich|eu|io|я|ik|jeg|jag|tôi|mình|saya|aku|"
    r"lo|la|l['’])(?!\w)|[^\W\d_]{3,}(?:o|ę|ю|у|ım|im|um|üm)(?!\w))"
    # and where no spaces part the words: the condition on a yes, then "I" ("对的话我就保存")
    r"|[\W_]{0,3}(?:对|是|没错|可以|是的)的话[，,]?\s*我|[\W_]{0,3}(?:それなら|そうであれば|よろしければ)[、,]?",
    regex.IGNORECASE,
)


# The reader's yes, or consent, in a condition ("If you say yes", "Si me dices que sí", "Wenn du
# einverstanden bist", "Se concordar")
_YES_IN_CONDITION = regex.compile(
    r"(?<!\w)(?:yes|ok|okay|sí|oui|ja|sim|sì|да|так|tak|ano|igen|evet|iya|agree\w*|confirm\w*|approv\w*|"
    r"de\s+acuerdo|d['’]accord\w*|einverstanden|zustimm\w*|concord\w*|akkoord|согла\w+|підтверд\w+|"
    r"confermi|confirmes|confirma\w*|bestätig\w*|bevestig\w*)(?!\w)",
    regex.IGNORECASE,
)
# The writer as the next clause's subject, or a verb in the first person with the pronoun dropped
# ("..., actualizo tu perfil", "..., I'll update it", "..., je la mets à jour")
_WRITER_NEXT = regex.compile(
    r"[ \t,]*(?:(?:[^\W\d_]+[ \t]+){0,2}?(?:I['’]ll|I|je|j['’]|ich|eu|io|я|ik|jeg|jag|tôi|mình|saya|aku)(?!\w)|"
    r"(?:(?:te|lo|la|le|o|a)[ \t]+)?[^\W\d_]{3,}(?:o|ę|ю|у|ım|im|um|üm)(?!\w))",
    regex.IGNORECASE,
)


# What the writer keeps the block in, named as the object of the step offered on a yes, or "das"
# for the block ("..., actualizo tu perfil", "..., trage ich das ein")
_KEPT_IN = regex.compile(
    r"(?<!\w)(?:das|profile|perfil|profil|profilo|profiel|профиль|профіль|memory|memoria|mémoire|memória|notes|notas|"
    r"Notizen|note)(?!\w)",
    regex.IGNORECASE,
)


def _step_on_yes(line: str) -> str | None:
    """What follows a condition on the reader's yes that opens ``line``, where the writer's step
    follows it ("Si me dices que sí, actualizo tu perfil." gives ", actualizo tu perfil."); None
    where the line opens with no such condition and step."""
    if not any(comma in line for comma in _COMMAS):
        return None  # (the writer's step follows the condition after a comma)
    text = line.lstrip(_LEAD)
    clause = _CONDITION.match(text) if text[:1].isalpha() else None
    if clause is None:
        return None
    # (the words after "if": Spanish "si" is no yes)
    words = clause.group().split(None, 1)
    if len(words) < 2 or _YES_IN_CONDITION.search(words[1]) is None:
        return None
    rest = text[clause.end() :]
    if not rest.startswith(_COMMAS) or _WRITER_NEXT.match(rest[1:]) is None:
        return None
    return rest


def _no_object(rest: str) -> bool:
    """Whether the writer's step after a condition is only a subject and its verb, with no object
    of its own ("Se você confirmar, eu gravo."): its object is the block."""
    return len(rest.strip(" \t,，.!。").split()) <= _NO_OBJECT_WORDS


_NO_OBJECT_WORDS = 2


def _yes_for_another_step(line: str) -> bool:
    """Whether the line opens with a condition on the reader's yes and goes on with a step of the
    writer's on an object of its own ("If you say yes, I'll look up removal firms for you."): that
    yes is asked for the other step, not for the block above."""
    rest = _step_on_yes(line)
    if rest is None or _BACK.search(rest) is not None or _KEPT_IN.search(rest) is not None or _no_object(rest):
        return False
    # (nor the block as an object pronoun before the verb: "..., je l'enregistre", "..., la guardo")
    return _CLITIC.search(rest) is None and _ELIDED.search(rest) is None


def _on_yes(line: str, before: str | None) -> bool:
    """Whether the line right after a block opens with a condition on the reader's yes, then the
    writer's step ("Si me dices que sí, actualizo tu perfil."): the block is offered, waiting on
    that yes, where the line above did not report it made; "too" offers a step besides it."""
    rest = _step_on_yes(line)
    if rest is None:
        return False
    if _BACK.search(rest) is None and _KEPT_IN.search(rest) is None and not _no_object(rest):
        return False  # (a step with an object of its own is another step: "..., suche ich dir Umzugsfirmen")
    return _TOO.search(rest) is None and not (before is not None and reports_done(before))


def waits_on_answer(question: str, line: str) -> bool:
    """Whether ``line``, after a question in a block's paragraph, makes the block on the answer:
    the question checks what the block holds, not what the reader did ("Did you get the results
    back?"), and the line promises the block, not a step besides it ("If so, I can note those
    too.")."""
    return (
        question.rstrip().endswith(_ASKS)
        and _ON_ANSWER.match(line) is not None
        and _YOU_ANYWHERE.search(question) is None
        and _TOO.search(line) is None
        and (not UNSPACED.search(line) or _CJK_YOU_TOO.search(question + "\n" + line) is None)
    )


_YOU_ANYWHERE = regex.compile(r"(?<!\w)" + _YOU, regex.IGNORECASE)
# "You" and "too" where no spaces part the words ("你是周五出发吗？", "住所も調べます"): a
# question about the reader, or a step besides the block
_CJK_YOU_TOO = regex.compile(r"你|您|あなた|당신|(?<=[\p{Han}\p{Katakana}])も|也|还")


# A letter alone, or after a word of a script written without spaces ("案A"), labelling an alternative
# (not after a digit: "Flat 4A:" / "Flat 4B:" name two flats, each its own step)
_LABEL_LETTER = regex.compile(r"(?<![^\W_])(?:[A-Za-z]|[АБВабв]|[ΑΒΓαβγ])(?![^\W\d_])|(?<=\p{Han})[A-Za-z](?![^\W\d_])")


# A letter alone opening a lead as its label, set apart by emphasis or followed by a dash, colon
# or full stop ("**A** — keep it in your profile:", "B: archive it instead:")
_LEAD_LETTER = regex.compile(
    r"[ \t]{0,3}(?:([*_]{1,2})(?P<l>[A-Za-zА-Яа-я])[.):]?\1(?:[ \t]*(?:[—–:.)]|-[ \t])|[ \t])|(?P<l>[A-Za-zА-Яа-я])[ \t]*(?:[—–:]|-[ \t]))"
)


def lettered_leads(first: str, second: str) -> bool:
    """Whether the lines directly before two blocks open on letters that follow each other as
    their labels ("**A** — keep it in your profile:" / "**B** — archive it instead:"): letters
    label alternatives, as in a list, where numbers label steps."""
    a, b = _LEAD_LETTER.match(first), _LEAD_LETTER.match(second)
    if a is None or b is None:
        return False
    x, y = a.group("l"), b.group("l")
    return x.isupper() == y.isupper() and ord(y) == ord(x) + 1


def alternative_leads(first: str, second: str) -> bool:
    """Whether the lines directly before two blocks offer them as alternatives: one line up to
    case, the second in lower case where the first is not ("O bé així:" / "o bé així:"), or one
    line but for the letter that labels each ("Wariant A:" / "Wariant B:")."""
    a, b = first.strip(" \t*_"), second.strip(" \t*_")
    # (either way the two lines are as long as each other: anything else is decided here)
    if not a or len(a) != len(b) or len(a) > LINE_CHARS or a == b:
        return False
    a, b = a.lower(), b.lower()
    if a == b:
        return first.lstrip(" \t*_")[:1] != second.lstrip(" \t*_")[:1] and second.lstrip(" \t*_")[:1].islower()
    # the first place they differ (they do, and both are at most a line long)
    lo = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
    return (
        a[lo + 1 :] == b[lo + 1 :] and _LABEL_LETTER.match(a, lo) is not None and _LABEL_LETTER.match(b, lo) is not None
    )


# "Which" in a question ("Quina vols?", "Mau yang mana?", "Melyik legyen?", "どちらにしますか？")
_WHICH = regex.compile(
    r"(?<!\w)(?:which|cuál(?:es)?|quel(?:le)?s?|lequel|laquelle|welche[snrm]?|qual(?:e|i)?|quale|который|которую|"
    r"какой|какую|який|яку|welke|vilken|vilket|hvilken|hvilket|kumpi|kumman|melyik|care|hangisi|hangisini|mana|"
    r"ποιο|ποια|ποιον|أي|أيهما|کدام|איזה|איזו|कौन\s+सा|कौन\s+सी|কোনটা|কোনটি|quina|quin|który|która|które|"
    r"którą|který|která|které|kterou|nào|"
    # or a preference asked for ("Was ist dir lieber?", "Pick one?", "¿Cuál prefieres?")
    r"prefer|prefers|rather|pick\s+one|choose|lieber|prefieres|prefiere|préfères|préférez|preferisci|preferisce|"
    r"preferes|prefere|wolisz|wolicie|предпочитаешь|предпочитаете|liever|föredrar|foretrækker|foretrekker|"
    r"mieluummin|inkább|preferi|tercih|lebih\s+suka|thích\s+cái|προτιμάς)(?!\w)|哪个|哪一个|哪種|哪种|どちら|どっち|どれ|"
    r"어느|어떤\s*(?:걸|것)|更喜欢|喜欢哪|อันไหน|แบบไหน",
    regex.IGNORECASE,
)


_WHICH_WORDS = 4
_WHICH_CHARS = 12


# Told to choose, without a question mark ("Sag einfach, welche.", "Pilih satu ya.", "Pick one.")
_CHOOSE = regex.compile(
    r"(?<!\w)(?:pick\s+one|choose\s+one|say\s+which|tell\s+me\s+which|sag(?:\s+(?:einfach|mir|bescheid))*,?\s+welche\w*|"
    r"such\s+(?:dir\s+)?eine?\s+aus|pilih\s+(?:satu|salah\s+satu)|elige\s+(?:una?|cuál)|dime\s+cuál|"
    r"choisis(?:-en)?\s+(?:une?|laquelle|lequel)|dis-moi\s+(?:laquelle|lequel)|scegli(?:ne)?\s+(?:una?|quale)|"
    r"dimmi\s+quale|escolh[ae]\s+(?:uma?|qual)|wybierz\s+(?:jedn\w*|któr\w*)|выбери(?:те)?\s+(?:один|одну|какой|какую)|"
    r"kies\s+er\s+een|välj\s+en|vælg\s+en|velg\s+en|valitse\s+(?:yksi|kumpi)|válassz\s+(?:egyet|egyiket)|"
    r"alege\s+(?:una|unul|care)|birini\s+seç|chọn\s+một|chagua\s+moja|"
    # "which" and a verb of telling in the languages that put the verb last or the object
    # first ("কোনটা লাগবে বলুন।", "कौन सा चाहिए, बताइए।", "hangisini istediğini söyle")
    r"(?:কোনটা|কোনটি)\s+(?:\S+\s+)?(?:বলুন|বলো|বলেন|জানান|জানাও)|"
    r"(?:कौन\s*सा|कौन\s*सी)\s+(?:\S+\s+){0,2}(?:बताइए|बताइये|बताएं|बताएँ|बताओ|बता\s+दो|बता\s+दीजिए)|"
    r"کدام\s+(?:\S+\s+){0,2}(?:بگو|بگویید|بگید)|(?:أخبرني|قل\s+لي)\s+(?:أي|أيهما)|"
    r"hangisini\s+(?:\S+\s+)?(?:söyle|söyleyin|seç|seçin)|niambie\s+(?:ipi|kipi|lipi|upi)|"
    r"(?:bilang|kasih\s+tahu|beritahu)\s+(?:saya\s+|aku\s+)?(?:yang\s+)?mana|πες\s+μου\s+ποι[οα]|"
    r"תגיד(?:י)?\s+(?:לי\s+)?(?:איזה|איזו))(?!\w)|选一个|挑一个|"
    r"どちらか選んで|どれ(?:が|を|に)?[^\n]{0,10}(?:教えて|言って)|골라\s*주세요|어느\s*(?:것|걸)[^\n]{0,12}(?:말해|알려)|"
    r"告诉我[^\n]{0,6}(?:哪个|哪一个)",
    regex.IGNORECASE,
)


def asks_which(after: str) -> bool:
    """Whether what follows the last block is only a question of a few words asking which is
    wanted ("Quina vols?"), or a line as short that tells the reader to choose ("Sag einfach,
    welche."); a longer one asks about something further ("Which of these should I look into
    next?")."""
    text = after.strip()
    if not text or "\n" in text:
        return False
    said = sentences(text)
    if len(said) > 1 and _short_question(said[0].strip()) and not any(_tells_done(rest) for rest in said[1:]):
        # (the question first, then more that tells nothing done: "Melyik legyen? Akár mindkettő
        # is mehet, de addig egyiket sem mentem el.")
        text = said[0].strip()
    if _short_question(text):
        if _WHICH.search(text) is None:
            return False
    elif len(text) > _CHOOSE_CHARS or _CHOOSE.search(text) is None or _FOR_MORE.search(text) is not None:
        # (one that asks which else to do, "Başka hangisini ekleyeyim, söyle.", is another step)
        return False
    if UNSPACED.search(text):
        # (a vowel or tone mark written over or under a letter is no character of its own: "ส่ง";
        # nor is a polite particle a word of the question: "เอาแบบไหนดีคะ?")
        return len(_MARKS.sub("", _POLITE.sub("", text))) <= _WHICH_CHARS
    return len(text.split()) <= _WHICH_WORDS


_MARKS = regex.compile(r"\p{M}+")
_POLITE = regex.compile(r"(?:นะ)?" + _THAI_PARTICLE + r"(?=[ \t]*[?？]?[ \t]*$)")


_CHOOSE_CHARS = 40


# A line between two blocks to the same tool that ends by saying the next one corrects the
# first: the correcting verb alone closes it ("Halt, das war Donnerstag, sorry. Korrigiere:",
# "Anzi no, hai scritto 13 aprile. Rifaccio:", "Стоп, это кошка бабушки. Исправляю:"). The first
# was taken back. Asked only of one line between two such blocks (see scan/settle.py), where a
# sibling's line ("And your brother:", "Việc thứ hai:") names no correction.
_CORRECTING = regex.compile(
    r"(?:^|[.!?;,，。！、…][ \t]*)[\W_]{0,3}(?:"
    r"correcting(?:\s+(?:it|that))?|correction|corrected(?:\s+(?:one|version))?|fixed(?:\s+(?:one|version))?|"
    r"fixing\s+(?:it|that)|redoing\s+(?:it|that)|let\s+me\s+(?:fix|redo)\s+(?:it|that)|"
    r"corrijo|corrigiendo|corregido|corrección|(?:lo\s+|la\s+)?rehago|rectifico|"
    r"je\s+(?:corrige|rectifie|reprends|refais)|rectification|corrigé|"
    r"je\s+(?:le\s+|la\s+)?remplace(?:\s+par\s+(?:ceci|ça|cela|celui-ci|celle-ci))?|"
    r"(?:ich\s+)?korrigiere(?:\s+das)?|korrigiert|korrektur|berichtigt|richtig\s+ist|neu|"
    r"corrigindo|corrigido|correção|refazendo|refaço|"
    r"correggo|(?:lo\s+|la\s+)?rifaccio|corretto|correzione|"
    r"исправляю|исправлено|исправление|поправка|переделываю|виправляю|виправлено|виправлення|"
    r"poprawiam|poprawka|poprawione|opravuji|opravuju|oprava|"
    r"düzeltiyorum|düzeltme|düzeltilmiş|"
    r"ik\s+corrigeer|correctie|verbeterd|rättar|rättelse|retter|rettelse|korjaan|korjaus|javítom|javítás|"
    r"corectez|corectură|(?:saya\s+|aku\s+)?betulkan|koreksi|ralat|pembetulan|sửa\s+lại|"
    r"διορθώνω|διόρθωση|מתקן|מתקנת|תיקון|أصحح|تصحيح|اصلاح\s+می[\u200c ]?کنم|सुधार|ঠিক\s+করছি|সংশোধন|"
    r"marekebisho|corregeixo|correcció|"
    r"訂正(?:します|しました)?|修正(?:します|しました)?|更正|改正|重新(?:记|写|保存)(?:一下)?|"
    r"정정(?:할게요|합니다)?|수정(?:할게요|합니다)?|다시\s*(?:쓸게요|저장할게요|적을게요)|แก้ไข"
    r")[ \t]*[:：][ \t*_]*$",
    regex.IGNORECASE,
)


def corrects_above(line: str) -> bool:
    """Whether ``line``, standing alone between two blocks to the same tool, ends by saying the
    second corrects the first."""
    return _CORRECTING.search(line[:LINE_CHARS]) is not None


# Any mark that may end a sentence, a space after it: a line split at these may be split too
# often ("den 4. Mai"), never too seldom ("era il 20. Annullo ...")
_ANY_END = regex.compile(r"[.!?]+[ \t]+|[。！？।॥][ \t]*")


def sentences(line: str) -> list[str]:
    """The sentences of ``line`` in order, split wherever one may end."""
    found, start = [], 0
    for m in _ANY_END.finditer(line):
        if m.end() < len(line):
            found.append(line[start : m.end()])
            start = m.end()
    found.append(line[start:])
    return found


def names_before_lead(line: str, value: str, *, was: str | None = None) -> bool:
    """Whether ``line``, of two or more sentences, names ``value`` (a word, or its stem) before
    its last sentence, in one that says nothing else was done besides ("Oeps, het was Bram. Die
    hierboven telt niet.", "Non, pardon, tu as dit Peugeot. Je remplace par :"): the value a block
    below corrects to, said before the lead into that block. A sibling's line names what it adds
    in its lead ("Thanks. Now the evening one:"), and a report names what was done ("Saved Miso.
    Adding Luna:"). ``was``: ``value`` is a number, named also inside a word ("d8s"), and ``was``
    the one it replaces, which the sentence may name only after it ("a d12, not a d10"; "a d6 and
    a d8" names two values, the second no correction)."""
    parts = sentences(line[:LINE_CHARS])
    if len(parts) < 2 or not value:
        return False
    found = _value_pattern(value, number=was is not None)
    old = None if was is None else _value_pattern(was, number=True)
    ends, at = [], 0  # where each sentence before the last ends
    for part in parts[:-1]:
        at += len(part)
        ends.append(at)
    # (the value is looked for across the sentences: a split made too often may cut it, "7. März")
    for m in found.finditer(line, 0, at):
        i = next(i for i, end in enumerate(ends) if m.start() < end)
        if old is not None and old.search(line, ends[i] - len(parts[i]), m.start()) is not None:
            continue
        if _TOO.search(parts[i]) is None and not reports_done(parts[i] + " "):
            return True
    return False


def _value_pattern(value: str, *, number: bool = False) -> regex.Pattern[str]:
    if number:
        # (a number stands in a word too, "d8s", "3x"; never in a longer number)
        return regex.compile(r"(?<![\d.,:])" + regex.escape(value) + r"(?!\d|[.,:]\d)")
    if UNSPACED.search(value):
        return regex.compile(regex.escape(value))
    # a stem: the word may be inflected in the sentence ("Ostrava" for "v Ostravě")
    stem = value[: max(len(value) - 2, min(len(value), 4))]
    return regex.compile(r"(?<![^\W_])" + regex.escape(stem), regex.IGNORECASE)


def names_both(line: str, value: str, was: str) -> bool:
    """Whether ``line``, a sentence that does not lead on (no colon at its end), names both the
    new value and the one it replaces ("Wait, York, not Leeds."), and that nothing else was done
    or is added besides."""
    line = line[:LINE_CHARS]
    if not value or not was or line.rstrip(" \t*_").endswith((":", "：")) or len(sentences(line)) > 1:
        return False
    return (
        _value_pattern(value).search(line) is not None
        and _value_pattern(was).search(line) is not None
        and _TOO.search(line) is None
        and not reports_done(line + " ")
    )


# More participles of keeping, that name the block below done only as a lead of a word or two
# ("Desat:", "Annotato:", "Записано:"; not Romanian "notat", which is Danish and Norwegian for a note)
_DONE_LEAD = regex.compile(
    r"^\W{0,3}(?:adăugat|actualizat|desat|anotat|guardat|afegit|actualitzat|annotato|registrato|segnato|memorizzato|"
    r"aggiunto|apuntado|registrado|añadido|agregado|adicionado|gravado|ajouté|vermerkt|eingetragen|aktualisiert|"
    r"hinzugefügt|bijgewerkt|toegevoegd|zapsáno|poznamenáno|zaznamenáno|přidáno|aktualizováno|dodano|"
    r"zaktualizowano|записано|обновлено|добавлено|отмечено|оновлено|додано|записала?)[ \t]*[.!][ \t]",
    regex.IGNORECASE,
)


def reports_done(before: str) -> bool:
    """Whether the line directly before a block reports the block made or being made now."""
    line = before[:LINE_CHARS].rstrip()
    if not line or line.endswith(_ASKS):
        return False
    found = _tells_done(line) or (
        # a line, or its last clause, of a word or two that names the block below done ("Guardado:",
        # "Понял. Сохранено:")
        line.endswith((":", "："))
        and any(
            done.match(clause) is not None
            for done in (DONE, _DONE_LEAD)
            for clause in (
                line[:-1].rstrip() + ". ",
                *(line[m.end() : -1].rstrip() + ". " for m in _CLAUSE_STARTS.finditer(line)),
            )
        )
    )
    return found and _NO_REPORT.search(line) is None


def _tells_done(line: str) -> bool:
    """Whether ``line`` tells a step done: a word or two that says so ("Sparat.", "Готово."), or
    a report where the line or one of its clauses starts."""
    return (
        DONE.match(line + " ") is not None
        or REPORTED.match(line) is not None
        or any(REPORTED.match(line, m.end()) is not None for m in _CLAUSE_STARTS.finditer(line))
        or _REPORTED_CJK.search(line) is not None
    )


def shown_after(
    after: str,
    *,
    others_ran: bool = False,
    before: str | None = None,
    ends: bool = False,
    leads_on: bool = False,
    above: str | None = None,
) -> Shown | None:
    """Why the lines directly after a performed-looking block make it something shown (a
    permission request, a disclaimer, a retraction, a condition on an earlier result).
    ``others_ran``: an earlier block of the reply ran, and none comes after this one.
    ``before``: the line directly before the block, where one stands right above it (asked
    whether it reports the block made, :func:`reports_done`, only when a short question follows).
    ``ends``: ``after`` is all the reply has left. ``leads_on``: another block follows ``after``
    directly (the next block's line is the one after its last). ``above``: the nearest line above
    the block past blank lines, where a blank line stands between (see :func:`_keeps_it`)."""
    lines = _after_lines(after)
    if lines and OR_NEXT.match(lines[0][:LINE_CHARS]):
        return Shown("proposed", OFFERED_WITH_NEXT, quote_words(lines[0][:LINE_CHARS]))
    # A reply that says the block is done before anything else ("Saved. If you'd rather I
    # hadn't, say so.") asks no leave for it: what it asks or offers next is about another step.
    done = bool(lines) and DONE.match(lines[0][:LINE_CHARS]) is not None
    # A bare question past a blank line starts something new ("Coffee tomorrow?"); only one in
    # the block's own paragraph is read for its shape.
    lead = len(after) - len(after.lstrip())
    tight = after[:lead].count("\n") < 2
    # A one-word question that is the last thing the reply says, even past a blank line, waits
    # on its answer ("Mogę?", "Sopiiko?"); one of more words there ("Coffee tomorrow?"), or one
    # followed by more of the reply, starts something new.
    last = int(ends and len(lines) == 1 and after.rstrip().endswith(lines[0].rstrip()))
    for i, line in enumerate(lines):
        line = line[:LINE_CHARS]
        if i == 0 and (asked := _answer_asked(line)) is not None:
            line = asked
        if i == 0 and (asked := _bare_then_or(line)) is not None:
            line = asked
        if others_ran and CHECK_QUESTION.match(line):
            continue
        gated = _LINE_GATES.held(line.lower())
        kind = _after_kind(line, gated)
        if kind == "proposed" and i == 0 and _plans_then_consents(line):
            kind = None
        short = _short_question(line)
        if (
            kind is None
            and short
            and _ASKS_ELSE.search(line) is None
            and (
                _BARE.search(_bare_text(line))
                or (
                    (_bare_shape(line, 2) or _ZH_BARE.match(line) is not None)
                    if tight
                    else bool(last) and _bare_shape(line, 1) and not _LATER.search(line)
                )
            )
        ):
            kind = "proposed"
        if kind is None and i == 0 and tight and (asked := _asked_then_told(line)) is not None:
            line, short, kind = asked, True, "proposed"
        if kind is None and i == 0 and not done and "held" in gated and _holds_it_back(line):
            kind = "proposed"
        if kind is None and _tag_on_block(line, tight):
            kind = "proposed"
        if kind is None and i == 0 and (tight or last) and not done and _dash_consent(line):
            kind = "proposed"
        if kind is None and tight and short and _checks_then_asks(line):
            kind = "proposed"
        if kind is None and tight and _asks_or_offers(line):
            kind = "proposed"
        # (a sentence of its own that asks leave to keep the block is no tag on the one before it)
        kept = kind is None and last and not tight and not done and _keeps_it(line, before, above)
        if kept:
            kind = "proposed"
        if kind is None and i == 0 and (tight or last) and not done and _asks_to_make_it(line):
            kind = "proposed"
        asks_keep = i == 0 and (tight or bool(last)) and _asks_to_keep(line)
        if kind is None and asks_keep:
            kind = "proposed"
        # (the same asked by grammar alone; one that points back at the block asks for it
        # whatever a lead above said it had noted)
        mine = _asks_my_step(line) if kind in (None, "proposed") and i == 0 and (tight or last) and not done else None
        if mine is not None:
            kind = "proposed"
            asks_keep = asks_keep or mine[1]
        elif kind is None and i == 0 and (tight or last) and not done and _asks_back_then_more(line):
            kind = "proposed"
        if (
            kind is None
            and i == 0
            and (tight or bool(last))
            and others_ran
            and before is not None
            and before.rstrip(" \t*_").endswith((":", "："))
            and (_asks_to_keep(line, too=True) or _asks_my_step(line, too=True) is not None)
            and not _own_object(line)
            and not reports_done(before)
        ):
            # the last of several blocks under a lead of its own, asked for as one more: the
            # earlier ones ran under theirs, this one waits
            asks_keep = True
            kind = "proposed"
        if kind is None and i == 0 and (tight or last) and _on_yes(line, before):
            kind = "proposed"
        if kind is None and i == 0 and _before_my_step(line):
            kind = "proposed"
        if kind is None and i == 0 and _would_be(line):
            kind = "example"
        if (
            kind is None
            and i == 0
            and tight
            and not done
            and "wish" in gated
            and (before is None or not _ends_in_colon(before))
            and _offered_on_wish(line)
        ):
            # (under a lead of its own that ends in a colon the block is the writer's act, and an
            # offer after it is of something more)
            kind = "proposed"
        if kind is None and tight and _my_step(line):
            kind = "proposed"
        if kind is None and i == 0 and before is not None and _asked_after_offer(before, line):
            kind = "proposed"
        if (
            kind is None
            and i == 0
            and (tight or last)
            and before is not None
            and _asks_leave(line)  # (first: most lines ask nothing, and the lead's reading costs)
            and _proposes(before)
        ):
            # (the question alone, under a lead that only presents the block or tells it made, is
            # as often about another step: "Ist es okay, wenn ich dich daran erinnere?")
            kind = "proposed"
        if kind is None and i == 0 and (q := _question_then(line)) and waits_on_answer(*q):
            # the same on one line ("C'est bien ça ? Si oui, je lance la mise à jour.")
            kind = "proposed"
        if kind is None and i == 1 and waits_on_answer(lines[0][:LINE_CHARS], line):
            # A question about the block's content, then the action promised on its answer
            # ("It's shellfish, yes?" / "If so, I'll save it."): the block waits on that answer.
            kind = "proposed"
        if kind == "example" and done:
            # after "Sent." a sentence that something was not sent is about something else
            kind = None
        if kind == "proposed" and (
            done
            # a line that goes on to another block ("And I drafted a note, not sent, just ready:")
            # holds back or asks leave for that block, not this one
            or (i == 0 and _into_next(lines, leads_on, after))
            or _aside(line)
            or (i == 0 and _yes_for_another_step(line))
            or (not tight and (_another_step(line) or (not kept and mine is None and _own_tag(line))))
            or (
                before is not None
                and (short or (i == 0 and _opens_with_check(line)))
                and (
                    reports_done(before)
                    or (short and _acts_in_lead(before, line if tight else None) and _checks_content(line))
                )
                and not _wants_me(line)
                and not asks_keep
                and not (
                    _MY_LEAVE.match(line) is not None
                    and (_BARE.search(_bare_text(line)) or _INFINITIVE_IT.search(line) is not None)
                )
            )
            or (
                i == 0
                and before is not None
                and short
                and _terse_report(before)
                and _checks_only(line, any_words=_one_word(before))
            )
        ):
            kind = None
        if kind == "example" and i == 0 and _into_next(lines, leads_on, after):
            # the same for a draft's words ("Und hier noch ein Entwurf, den ich noch nicht
            # abgeschickt habe:"): they speak of the block they lead into
            kind = None
        if kind == "retracted":
            # (a retraction's verb with an object of its own takes back that, not the block:
            # "Disregard the typo in your message", "Scratch that worry")
            bare = _OTHER_OBJECT.sub(" ", _without_supposed(line))
            if bare != line:
                kind = _after_kind(bare)
        elif kind == "example" and _CONDITION.match(line.lstrip(_LEAD)):
            # A disclaimer's words in a condition that opens the line ("Falls sie noch nicht
            # gespeichert ist, würde ich ...") set up the next step and say nothing of this block;
            # only that clause is set aside ("Si te lo preguntas, no se ha guardado nada").
            kind = _after_kind(_CONDITION.sub(" ", line, count=1))
        if kind is not None:
            return Shown(kind, _WHY_AFTER[kind], quote_words(line))
    if ends and lines and not done and (closing := _closing_question(after)) is not None:
        # The reply closes on a question past the block's paragraph, and only statements about
        # the block stand between ("Your old address would be gone after this." / "Want me to go
        # ahead and swap them?"): nothing reported it done, so leave asked there is asked for it.
        shown = shown_after(closing, before=before, ends=True)
        if shown is not None and shown.kind == "proposed":
            return shown
        # and a question of two words asks it as it would in the block's own paragraph ("Això
        # substituiria el telèfon antic." / "Ho guardo?"): the statements keep it on the block
        question = closing.strip()
        if _short_question(question) and _bare_shape(question, 2):
            return Shown("proposed", _WHY_AFTER["proposed"], quote_words(question))
    return None


# The writer's own step of keeping the block, asked as a question of its own: "do you want me to
# note it", an infinitive ("Обновить профиль?") or a volitive ("記録しておきましょうか？"). Its
# verb is one of keeping (note, save, record, update), the block its only object: a question
# that offers another step ("Помочь с переездом?", "Vous voulez que je vous trouve un hôtel ?")
# starts something new.
_KEEPS_IT = regex.compile(
    r"^[\W_]{0,3}(?:"
    r"(?:do\s+you\s+)?(?:want|would\s+you\s+like)\s+me\s+to\s+(?:note|save|record|log|store|keep|update|jot)\s+"
    r"(?:it|this|that)(?:\s+down)?|"
    # (leave asked as whether it is all right: "Okay to store this?", "Is it fine if I note it?")
    r"(?:is\s+it\s+|would\s+it\s+be\s+)?(?:ok|okay|alright|all\s+right|fine)\s+(?:(?:for\s+me\s+)?to|if\s+I)\s+"
    r"(?:note|save|record|log|store|keep|add|jot)\s+(?:it|this|that)(?:\s+down)?|(?:shall|should)\s+I\s+(?:note|record|log|update|keep|jot|(?:keep|make)\s+a\s+note\s+of)"
    r"\s+(?:it|this|that)(?:\s+down)?(?P<kept>\s+for\s+later)?|"
    # the block the only object of the reader's wish, and where it would go ("Do you want that on
    # your list?"), not a step done to it ("Do you want a reminder for it?")
    r"(?:do\s+you\s+)?want\s+(?:it|this|that)(?:\s+one)?(?:\s+(?:in|on|added\s+to)\s+(?:your|the)\s+\w+)?|"
    r"(?:est-ce\s+que\s+)?(?:(?:vous\s+)?voulez|(?:tu\s+)?veux|voulez-vous|veux-tu)\s+que\s+je\s+(?:le|la|les|l['’])"
    r"\s*(?:note|enregistre|garde|retienne|sauvegarde|consigne|mette\s+à\s+jour)|"
    r"¿?\s*(?:quieres|quiere|queréis)\s+que\s+(?:lo|la|los|las)\s+(?:guarde|anote|apunte|registre|actualice)|"
    r"(?:vuoi|vuole|volete)\s+che\s+(?:lo|la|li|le|l['’])\s*(?:salvi|annoti|segni|registri|aggiorni|memorizzi)|"
    r"(?:você\s+)?(?:quer|queres)\s+que\s+eu\s+(?:o\s+|a\s+)?(?:anote|salve|guarde|registre|atualize)|"
    r"(?:willst|möchtest)\s+du,?\s+dass\s+ich\s+(?:es|das|ihn|sie)\s+(?:notiere|speichere|festhalte|vermerke|"
    r"aktualisiere)|(?:soll|darf)\s+ich\s+(?:es|das|ihn|sie)\s+(?:notieren|festhalten|vermerken|aktualisieren)|"
    r"(?:wil\s+je|wilt\s+u)\s+dat\s+ik\s+(?:het|dit|dat)\s+(?:noteer|bijwerk|onthoud)|"
    # (an infinitive that asks "shall I", with one word for what is kept: "Обновить профиль?")
    r"(?:мне\s+)?(?:сохранить|записать|обновить|запомнить|отметить|внести)(?:\s+[\w-]+)?|"
    r"(?:зберегти|записати|оновити|запам['’]ятати|внести)(?:\s+[\w-]+)?|"
    r"(?:czy\s+)?(?:mam\s+)?(?:to\s+)?(?:zanotować|zaktualizować|zapamiętać)(?:\s+to)?|"
    r"(?:これを|これで|この内容で)?(?:記録|保存|更新|登録|メモ)(?:して(?:おき|お)|しておき|し)?(?:ましょうか|ますか)|"
    # (leave asked in the form "may I": the verb, "-te mo", and "is it all right")
    r"(?:これを)?(?:記録|保存|登録|メモ)(?:して|し)ても(?:いい|大丈夫|よろしい|構いません)(?:です|でしょう)?か|"
    r"(?:이렇게\s*)?(?:저장|기록|메모|업데이트)(?:해\s*(?:둘|놓을|드릴)까요|할까요)|"
    r"(?:要不要|要)?我?(?:帮你)?(?:记下来|记下|记录一下|记录|保存一下|存一下|更新一下)(?:吗|吧)"
    r")[ \t]*[?？][ \t]*$",
    regex.IGNORECASE,
)


# Leave asked for the block by the grammar of a short question rather than by its verb: the
# writer's own step, not taken yet, in a first person that offers (a modal, subjunctive,
# optative, future or offering present: "Shall I", "Můžu", "να το", "je l'ajoute ?",
# "Tallennanko?"), pointed back at the block by a pronoun ("Can I save it?", "Lo actualizo?"),
# or with no object at all, the verb closing a clause of a word or three ("सेव कर दूँ?",
# "ذخیره کنم؟"). The words are closed classes (first-person forms and endings, modals, object
# pronouns), the same few per language whatever the step.
# The reader's wish for the writer's step, where its words carry the first person: Finnish "that I"
# with its ending ("Haluatko / Sopiiko, että tallennan sen?"), Turkish "-memi ister misin"
_WISH_MY_STEP = r"että\s+\p{L}{3,}n|\p{L}+(?:memi|mamı)\s+ister\s+mi(?:sin|siniz)?"
_MY_STEP_ASKED = regex.compile(
    r"(?<!\w)(?:"
    r"(?:shall|should|can|may)\s+I|(?:want|like)\s+me\s+to|"
    r"(?:soll|darf|kann)\s+ich|(?:dass|wenn|ob)\s+ich|\p{L}{3,}e\s+ich|(?:zal|moet|mag|kan)\s+ik|dat\s+ik|"
    r"(?:ska|skall|får|kan|bör)\s+jag|att\s+jag\s+\p{L}+r|(?:skal|må|kan|får|bør)\s+jeg|at\s+jeg\s+\p{L}+r|"
    r"(?:que|si)\s+(?:je|j['’])|je\s+(?:le|la|les|l['’]\p{L}+)|puis-je|dois-je|"
    # (a clitic that opens the clause, before a verb in the first person: "¿Lo actualizo?",
    # "L'aggiungo?", "Ho guardo?"; "el regalo" and "la foto" are a noun's article)
    r"^(?:lo|la|los|las|li|le|l['’])\s*\p{L}{2,}o|(?:si|que|se)\s+(?:lo|la|los|las)\s+\p{L}{2,}[oe]|puedo|debo|"
    # (Italian asks it with "che" and the first person's subjunctive: "Ti va che lo registri?")
    r"che\s+(?:lo|la|li|le|l['’])\s*(?!prossim|volta|prim|stess|tu[ao]|mi[ao]|su[ao]|nostr|vostr)\p{L}{2,}[ia]|"
    r"posso|devo|(?:que\s+)?eu\s+\p{L}{3,}|puc|^(?:ho|l['’])\s*\p{L}{2,}[oi]|să\s+(?:îl|o|le|\p{L}{3,}(?:ez|esc))|(?:îl|o)\s+\p{L}{3,}ez|"
    r"czy\s+(?:mogę|mam)|mogę|mam|můžu|mohu|mám|smím|мне|могу|можу|мені|"
    r"να\s+(?:το|τα|τον|την|τους|τις)|μπορώ\s+να|"
    r"\p{L}{2,}(?:ayım|eyim|yayım|yeyim)\s+m[ıi]|\p{L}{3,}(?:nko|nkö)|" + _WISH_MY_STEP + r"|"
    # (Swahili "will you let me": "Je, unaniruhusu kuhifadhi?")
    r"\p{L}*niruhusu|"
    r"(?:saya|aku)|boleh(?:kah)?|perlu(?:kah)?|(?:tôi|mình)\s+\p{L}+|"
    r"क्या\s+मैं|"
    r"(?:^|هل\s+)أ\p{L}{2,}|(?:^|האם\s+)(?:ש?א|ל)\p{L}{3,}"
    r")(?!\w)",
    regex.IGNORECASE,
)
# The same, where the verb in the first person (or an infinitive asking "shall I") ends the clause
_MY_STEP_LAST = regex.compile(
    r"(?:(?<!\w)(?:\p{L}{3,}(?:ть|ти)|\p{L}{3,}(?:nko|nkö)|\p{L}{3,}(?:jam|jem|sam|sem|zam|zem)(?:\s+(?:el|meg|fel|be))?|"
    r"\p{L}{2,}(?:ayım|eyim|yayım|yeyim)\s+m[ıi]|\w+م|\w+(?:ূँ|ूँ|ूं|ऊँ|ऊं)|\w+(?:ব|বো)|\w+ই|"
    r"nii?\p{L}{3,}[ei]|\p{L}*niruhusu(?:\s+ku\p{L}+)?|\p{L}{3,}e\s+ich|(?:ich|ik|jag|jeg)|\p{L}{2,}(?:nhé|nha)|nhé|nha|không)|\p{Hangul}까요?)"
    r"[ \t]*[?？؟;]$",
    regex.IGNORECASE,
)
# A pronoun or demonstrative that points back at the block, as a word or as an ending on a verb
# ("guardarlo", "أحفظه", "نگهش", "simpannya")
_POINTS_BACK = regex.compile(
    r"(?<!\w)(?:it|this|that|them|lo|la|los|las|l['’]|le|les|esto|eso|ça|cela|ceci|es|das|dies|ihn|isso|isto|"
    r"questo|quello|это|его|её|их|це|його|її|het|dit|dat|det|detta|dette|den|to|tego|tohle|ho|το|τα|αυτό|"
    r"bunu|onu|sen|tämän|ezt|azt|îl|asta|acesta|aceasta|ini|itu|này|đó|hii|hiyo|זה|אותו|این|آن|اینو|"
    r"इसे|यह|इसको|इस|এটা|এটি|এটাকে|এটাও)(?!\w)|\p{L}{2,}(?:[aeií]r|ndo)(?:lo|la|los|las|li)(?!\w)|\p{L}{2,}(?:nya|ه|ش)(?!\w)|(?<!\w)l['’](?=\p{L})",
    regex.IGNORECASE,
)
# Where no spaces part the words: a yes/no particle or the writer's volitive that closes the
# question ("要加进去吗？", "บันทึกไว้เลยไหมครับ?", "記録しておきましょうか？")
_ASKED_CJK = regex.compile(
    r"(?:吗|嗎|要不要|ましょうか|しようか|ておこうか|て(?:も)?(?:いい|よろしい)(?:です|でしょう)?か|"
    r"ไหม|มั้ย|หรือเปล่า|\p{Hangul}까요?)(?:ครับ|คะ|ค่ะ|นะ)?[ \t]*[?？]?$"
)
# and what makes such a question about something else: the reader, more, a time, or a check of
# what was done ("你周末去吗？", "มีอะไรให้ช่วยอีกไหม", "保存好了吗？", "ถูกต้องไหม")
_NOT_MY_STEP_CJK = regex.compile(
    r"^(?:接下来|然后|下一步|之后)|^是|你|您|あなた|也|还|還|他|ほか|别|其他|了|対|对|對|没错|(?<=[\p{Han}\p{Katakana}])も|다른|(?<=\p{Hangul})도(?=\s)|"
    r"คุณ|เธอ|อีก|อื่น|แล้ว|ถูก|อะไร|ไหน|ใคร|ทำไม|ยังไง|อย่างไร|เมื่อ|"
    r"明天|今天|今晚|周末|週末|明日|今日|今夜|내일|오늘|주말|พรุ่งนี้|วันนี้|คืนนี้|เสาร์|อาทิตย์"
)
# Indonesian and Malay "while at it": a step besides the block ("Mau sekalian saya ingat jam kantornya?")
_BESIDES = regex.compile(r"(?<!\w)(?:sekalian|sekaligus)(?!\w)", regex.IGNORECASE)
_CJK_COMMA = regex.compile(r"[、，,]")
# "Actually" or "for real" before the step asked ("実際に保存しておきましょうか？"): it says the
# block did not do it, and is no object of the step
_REALLY_JA = regex.compile(r"^(?:実際に|本当に|ほんとうに)")
_STEP_CLAUSE_WORDS = 3
_ASK_TAIL = 16  # (the last characters of a line, where its question's mark or particle stands, emoji after it)
_POLITE_TH = regex.compile(r"(?:ครับ|คะ|ค่ะ|นะ)+$")
_OR_NOT = regex.compile(
    r"[,，]?[ \t]+(?:or|o|ou|oder|of|eller|или|або|czy|atau|nebo|alebo|vagy|veya|yoksa|sau|tai|ή|או|یا|या|নাকি|hay|au)"
    r"[ \t]+(?:not|no|nicht|non|não|nee|nej|ne|nie|не|ні|nu|ei|nem|değil|hayır|όχι|לא|نه|नहीं|না|không|tidak|hapana|"
    r"nein|niet|inte|ikke|no\s+ser)[ \t]*[?？;؟]$",
    regex.IGNORECASE,
)
_MY_STEP_WORDS = 8
_STEP_CHARS = 18
_STEP_BARE_CHARS = 12  # (letters, not the marks over them, of one with no pronoun for the block)
# Words that ask yes or no and are no question word here (Hindi "क्या" opens one, Turkish "mı" closes one)
_YES_NO = regex.compile(r"^[\W_]{0,3}क्या(?!\w)|(?<!\w)m[ıiuü](?!\w)", regex.IGNORECASE)


# French asks "shall I" with the first person and its verb in the present, the question carried
# by its mark alone ("Je mets à jour ?", "J'enregistre ?"); not with "être" or "avoir", which
# ask whether something is so ("Je suis clair ?", "J'avais raison ?"), nor with the reflexive or
# the reader as the object ("Je me trompe ?", "Je t'aide autrement ?")
_I_FIRST = regex.compile(
    r"(?:je|j['’])(?=\s*\p{L})(?!\s*(?:me|m['’]|te|t['’]|vous|suis|étais|serai|serais|ai|avais|aurai|aurais)(?!\w))",
    regex.IGNORECASE,
)
_YOU_OBJECT_FR = regex.compile(r"(?<!\w)(?:(?:te|vous)(?!\w)|t['’])", regex.IGNORECASE)
_I_FIRST_WORDS = 5


# The writer's step told as under way, in the progressive ("I'm checking my notes ...", "Estoy
# buscando ...", "Sto cercando ..."): a question after it on the line asks about another thing
_DOING_NOW = regex.compile(
    r"(?<!\w)(?:I['’]m|I\s+am)\s+(?:now\s+|just\s+)?(?!going\b)\w+ing\b|(?<!\w)(?:estoy|estou|sto)\s+"
    r"(?:ahora\s+|agora\s+|ora\s+)?\w+(?:ando|iendo|endo|indo)\b",
    regex.IGNORECASE,
)


def _doing_now(sentence: str) -> bool:
    line = sentence[:LINE_CHARS]
    return (
        _DOING_NOW.search(line) is not None
        and _HEDGED.search(line) is None
        and _NO_REPORT.search(line) is None
        and _ASK_MARK(line) is None
    )


def _asks_my_step(line: str, *, too: bool = False) -> tuple[bool, bool] | None:
    """Whether ``line`` is a short question that asks leave for the writer's step on the block
    by its grammar (see :data:`_MY_STEP_ASKED`), and whether it points back at the block; None
    where it does not. One that asks for more, for something too, for a later time, about the
    reader, with a question word, or whether what was done is right, asks about another thing.
    With ``too`` (the last of several blocks, under a lead of its own) it may ask for the block
    as one more ("Je l'ajoute aussi ?")."""
    # (most lines after a block ask nothing: the question's mark, or a Thai particle, ends it)
    tail = line[:LINE_CHARS].rstrip()[-_ASK_TAIL:]
    if _ASK_MARK(tail) is None and ";" not in tail and not any(p in tail for p in _THAI_ASKS):
        return None
    said = sentences(line[:LINE_CHARS].strip())
    text = _without_signs(said[-1].strip())
    if not (text.endswith(_ASKS) or _greek_question(text) or any(p in text for p in _THAI_ASKS)):
        return None
    # (a sentence before it on the line that reports the block done: "記録しました。...？")
    if any(
        reports_done(sentence) or DONE.match(sentence[:LINE_CHARS] + " ") is not None or _doing_now(sentence)
        for sentence in said[:-1]
    ):
        return None
    if UNSPACED.search(text):
        bare = _REALLY_JA.sub("", _POLITE_TH.sub("", text.rstrip("?？ \t")), count=1)
        if len(bare) > _STEP_CHARS or _ASKED_CJK.search(text) is None or _NOT_MY_STEP_CJK.search(bare):
            return None
        if _QUESTION_WORD.search(bare) is not None or _CORRECT.search(bare) is not None:
            return None
        back = _BACK_CJK.search(bare) is not None
        # (a topic of its own before a comma is the step's object: "引っ越しの準備、手伝いましょうか？")
        letters = sum(1 for ch in bare if unicodedata.category(ch) != "Mn")
        if not back and (_CJK_COMMA.search(bare) is not None or letters > _STEP_BARE_CHARS):
            return None
        return True, back
    text = _OR_NOT.sub(text[-1], text)  # ("Můžu to uložit, nebo ne?": the refusal offered is no other step)
    if len(text.split()) > _MY_STEP_WORDS:
        return None
    for words in (_TOO, _BESIDES, _FOR_MORE, _LATER, _ANOTHER, _ASKED_DONE, _PAST, _CORRECT):
        if words.search(text) is not None and not (too and words is _TOO):
            return None
    if _YOU_ANYWHERE.search(text) is not None and _WANT_ME.search(text) is None:
        return None  # (a question about the reader; "Vil du at jeg ..." asks for the writer's step)
    if _QUESTION_WORD.search(_YES_NO.sub(" ", text)) is not None:
        return None
    # (the clause that asks: after a lead of its own, "Εντάξει, ..." or "ठीक है, ...")
    clause = text[max(text.rfind(","), text.rfind("،")) + 1 :].strip(" \t¿¡")
    back = _POINTS_BACK.search(clause) is not None
    if back and _MY_STEP_ASKED.search(clause) is not None:
        return True, True
    if len(clause.split()) <= _STEP_CLAUSE_WORDS and _MY_STEP_LAST.search(clause) is not None:
        # (the verb alone, its object unsaid, is a step on the block: "Kaydedeyim mi?")
        return True, True
    if (
        _I_FIRST.match(clause) is not None
        and len(clause.rstrip("?？ \t").split()) <= _I_FIRST_WORDS
        and _YOU_OBJECT_FR.search(clause) is None
    ):
        return True, back
    return None


# An object of the question's own, named by an article and its noun, after the verb: French "le",
# "la", "les", "l'" stand before the verb as pronouns ("Je le note aussi ?") and after it as
# articles ("Je note aussi le yoga ?"); German "das", "die", "den" are articles before a noun's
# capital ("Soll ich auch das Yoga eintragen?"); the indefinite articles and the possessives
# ("un", "du", "ton", "ein", "deine") are determiners wherever they stand. ("l'autre", "the other
# one", stands for a thing as a pronoun would.) Asked with "too" after several blocks that ran, such a question
# offers one more thing, not the block.
_OWN_OBJECT = regex.compile(
    r"(?<!\w)(?:(?<!(?:^|[\s¿¡])(?:je|j['’]|tu|il|elle|on|nous|vous|ne|n['’]|que|qu['’]|si|me|m['’]|te|t['’]|se|s['’])\s*)"
    r"(?:le|la|les)\s+(?!autres?(?!\w))\p{Ll}|(?<=\p{L}\s+)l['’](?=\p{L})(?!autre)(?<!(?<!\w)(?:je|ne|que|si|me|te|se|on|il|tu)\s+l['’])|"
    r"(?:das|die|den|dem)\s+\p{Lu}|(?:un|une|des|du|mon|ma|mes|ton|ta|tes|son|sa|ses|votre|vos|notre|nos|ein|eine|einen|"
    r"einem|mein|meine|meinen|dein|deine|deinen|ihre|ihren)\s+\p{L})",
    regex.IGNORECASE,
)


def _own_object(line: str) -> bool:
    """Whether the question on ``line`` names an object of its own by an article (see :data:`_OWN_OBJECT`)."""
    said = sentences(line[:LINE_CHARS].strip())
    clause = said[-1] if said else ""
    clause = clause[max(clause.rfind(","), clause.rfind("،")) + 1 :].strip(" \t¿¡")
    return _OWN_OBJECT.search(clause) is not None


# An offer of the writer's step on the block made on the reader's wish, in a sentence right after
# it ("I can file this now if you want.", "Je peux l'enregistrer si tu veux.", "Ich kann das
# speichern, wenn du magst."): the writer's modal of ability, a condition whose subject is the
# reader and whose verb is a wish, and the step's verb the block's own
_I_CAN = re.compile(
    r"(?<!\w)(?:I\s+can|I\s+could|ich\s+kann|ich\s+könnte|je\s+peux|je\s+pourrais|puedo|podría|posso|potrei|"
    r"eu\s+posso|ik\s+kan|jag\s+kan|jeg\s+kan|mogę|могу|я\s+могу)(?!\w)",
    regex.IGNORECASE,
)
_ON_WISH = re.compile(
    r"(?<!\w)(?:if\s+you\s+(?:want|like|wish|prefer|(?:['’]d|would)\s+like)|si\s+(?:quieres|lo\s+quieres|prefieres|tu\s+(?:le\s+)?veux|"
    r"vous\s+(?:le\s+)?(?:voulez|souhaitez))|wenn\s+du\s+(?:willst|möchtest|magst)|wenn\s+sie\s+(?:wollen|möchten)|"
    r"se\s+(?:vuoi|volete|preferisci|quiser|você\s+quiser)|als\s+je\s+(?:wilt|wil)|om\s+du\s+vill|hvis\s+du\s+vil|"
    r"jeśli\s+chcesz|если\s+(?:хочешь|хотите))(?!\w)",
    regex.IGNORECASE,
)
_OFFER_VERB = regex.compile(
    r"(?<!\w)(?:file|add|put|update|mettre\s+à\s+jour|ajouter|hinzufügen|añadir|aggiungere)(?!\w)", regex.IGNORECASE
)
_OFFER_WORDS = 14


def _offered_on_wish(line: str) -> bool:
    """Whether ``line`` offers the writer's step on the block on the reader's wish (see
    :data:`_I_CAN`): one sentence, and nothing besides the block offered ("I can also set a
    reminder if you want", "... later")."""
    # (the condition first: most lines after a block hold none)
    if _ON_WISH.search(line) is None or len(line.split()) > _OFFER_WORDS or _I_CAN.search(line) is None:
        return False
    if len(sentences(line.strip())) != 1:
        return False
    if _KEEP_VERB.search(line) is None and _OFFER_VERB.search(line) is None:
        return False
    return not any(words.search(line) is not None for words in (_TOO, _ANOTHER, _FOR_MORE, _LATER))


def _keeps_it(line: str, before: str | None, above: str | None) -> bool:
    """Whether a question that closes the reply past a blank line after a block asks leave for
    the writer's step of keeping it (see :data:`_KEEPS_IT`) where the reply reported it done
    neither right above the block nor on the last line above it: past the block's paragraph the
    question is otherwise read as starting something new ("Coffee tomorrow?")."""
    ask = _leave_part(line)
    if ask is None or not _short_question(ask):
        return False
    found = _KEEPS_IT.match(ask)
    if found is None:
        return False
    # ("for later" is where a note is kept, no later time for another step)
    kept = found.span("kept") if found.group("kept") else (0, 0)
    if _TOO.search(ask) is not None or _FOR_MORE.search(ask) is not None:
        return False
    if _LATER.search(ask[: kept[0]] + ask[kept[1] :]) is not None:
        return False
    # (nor in a sentence of the question's own line: "記録しました。保存してもいいですか？")
    told = [before, above, *sentences(line.strip())[:-1]]
    return not any(
        sentence is not None and (reports_done(sentence) or DONE.match(sentence[:LINE_CHARS] + " ") is not None)
        for sentence in told
    )


# Words that refuse a step ("or would you rather I didn't?", "oder lieber nicht?")
_REFUSED = regex.compile(
    r"(?:n['’]t|(?<!\w)(?:not|no|nicht|nein|non|não|nee|nej|ne|nie|не|いいえ))(?!\w)", regex.IGNORECASE
)


# The reader's preference asked for ("or would you rather keep it out of my notes?", "o
# preferisci di no?"): the other answer to the same leave, not a step of the reader's own
_RATHER = regex.compile(
    r"(?<!\w)(?:rather|prefer\w*|lieber|plutôt|préfère\w*|préférez|prefier\w*|preferi\w*|prefere\w*|liever)(?!\w)",
    regex.IGNORECASE,
)
# (a step of "we" is one of its own all the same: "Okay, or would you rather we plan the party?")
_WE = regex.compile(
    r"(?<!\w)(?:we|nosotros|nous|wir|a\s+gente|nós|noi|мы|wij|vi)(?!\w)|\w{2,}(?:amos|emos|imos|iamo)(?!\w)",
    regex.IGNORECASE,
)


def _leave_part(line: str) -> str | None:
    """The part of a line's last sentence that can ask leave: the sentence, a question, up to a
    comma and "or" that offers the other answer, where that answer is only the refusal or asks
    for nothing besides (no more, no later time, no other step); None where the line ends in no
    question or offers another step there."""
    if _ASK_MARK(line) is None:
        return None
    text = _without_signs(sentences(line.strip())[-1].strip())
    if not text.endswith(_ASKS):
        return None
    clause = _OR_CLAUSE.search(text)
    if clause is None:
        return text
    other = text[clause.end() :]
    if any(words.search(other) is not None for words in (_FOR_MORE, _TOO, _LATER, _ANOTHER)):
        return None
    if (
        _THEIR_STEP.search(other) is not None
        and _REFUSED.search(other) is None
        and (_RATHER.search(other) is None or _WE.search(other) is not None)
    ):
        return None
    return text[: clause.start()].rstrip() + text[-1]


# The writer's step offered in the conditional on the line above a block ("And one more I could
# add:", "Ich könnte außerdem die Termine festhalten:"), and a question after it that points back
# at it ("Want that one too?") or asks whether the writer should ("Sag Bescheid, ob ich das auch
# eintragen soll."): the block is the offer, and "too" sets it beside the calls made before it.
_OFFERED = regex.compile(
    r"(?<!\w)(?:I\s+could|I\s+might|ich\s+könnte|je\s+pourrais|podría|potrei|poderia|eu\s+poderia|"
    r"ik\s+zou|jag\s+skulle\s+kunna|я\s+мог(?:у|ла|\s+бы)?|"
    # (what the writer would have besides: "Und das hier hätte ich noch:", "I'd have this one too:")
    r"hätte\s+ich|ich\s+hätte|I['’]d\s+have|I\s+would\s+have)(?!\w)",
    regex.IGNORECASE,
)
_WHETHER_I = regex.compile(
    r"(?<!\w)(?:ob\s+ich|whether\s+I|if\s+I\s+should|si\s+je\s+dois|se\s+devo|si\s+debo)(?!\w)", regex.IGNORECASE
)
_OFFER_GATES = (
    "could",
    "might",
    "könnte",
    "pourrais",
    "podría",
    "potrei",
    "poderia",
    "zou",
    "skulle",
    "мог",
    "hätte",
    "d have",
)
_ALMOST = regex.compile(
    r"(?<!\w)(?:fast|beinahe|almost|nearly|bijna|nästan|næsten|nesten|casi|presque|quase|quasi|почти|майже|prawie|"
    r"melkein|majdnem|neredeyse|hampir|suýt|failli|por\s+poco)(?!\w)",
    regex.IGNORECASE,
)
# The slip that "almost" tells of: what the writer would have missed or forgotten
_SLIP = regex.compile(
    r"(?<!\w)(?:miss(?:ed)?|forg[eo]t(?:ten)?|overlook(?:ed)?|skipp(?:ed)?|vergessen|übersehen|verpasst|oubli[éeé]\w*|"
    r"rat[ée]|olvidad[oa]|olvidé|pasado|esquecid[oa]|esqueci|perdid[oa]|dimenticat[oa]|perso|vergeten|gemist|"
    r"overgeslagen|glömt|missat|glemt|overset|пропустил\w*|забыл\w*|пропустив|забув|przeoczył\w*|zapomniał\w*|"
    r"unohtanut|ohittanut|elfelejtettem|unuttum|kaçırıyordum|lupa|terlewat|quên)(?!\w)",
    regex.IGNORECASE,
)


def _slip_told(sentence: str) -> bool:
    """Whether the lead tells of a slip the writer almost made ("I'd have almost missed this one:",
    "Das hätte ich fast vergessen:"): its conditional is about what did not happen, it offers
    nothing."""
    return _ALMOST.search(sentence) is not None and _SLIP.search(sentence) is not None


# A question whether the block shall go in, a modal and a pronoun for it ("Soll das auch rein?")
# (German writes its nouns capitalised: "der" before a word in lower case is a pronoun, "Soll der
# auch rein?", before a capital an article, "Soll die Erinnerung auch rein?")
_SHALL_IT = regex.compile(
    r"[\W_]{0,3}(?i:soll|darf|should|shall)\s+(?:(?i:das|dies|es|it|this|that)(?!\w)|"
    r"(?:der|die|den)(?=\s+\p{Ll}|\s*[?,]))"
)


def _asked_after_offer(before: str, line: str) -> bool:
    """Whether ``line``, the first after a block, asks about the step that ``before`` offered."""
    asks = line.rstrip().endswith(_ASKS)
    if not asks and "ob ich" not in line and "whether I" not in line and "if I should" not in line:
        return False
    low = before.lower()
    if not any(gate in low for gate in _OFFER_GATES) or _OFFERED.search(last_sentence(before)) is None:
        return False
    if _ALMOST.search(before) is not None:
        return False  # ("Das hätte ich fast vergessen:" tells of a slip, offers nothing)
    if asks:
        return CHECK_QUESTION.match(line) is None and (
            _BACK.search(line) is not None or _SHALL_IT.match(line) is not None
        )
    return _WHETHER_I.search(line) is not None


# A lead that proposes the block rather than reports it: the writer's verb in the conditional or
# of wish, in the first person ("Voici ce que j'enregistrerais :", "Asta aș salva:", "Kaydetmek
# istediğim şu:", "Ezt menteném el:", "Folgendes möchte ich speichern:")
_PROPOSES = regex.compile(
    # (not its polite forms: "I'd be happy to save that for you:", "I'd love to add that:")
    r"(?<!\w)(?:(?:I['’]d|I\s+would)(?!\s+(?:be\s+(?:happy|glad|delighted|pleased)|love)\s+to(?!\w))|I\s+want\s+to|"
    r"I['’]d\s+like\s+to|"
    r"(?:je\s+|j['’])\p{L}{2,}rais|(?:me\s+)?gustar[íi]a|quisiera|quiero|vorrei|\p{L}{2,}rei|queria|quero|gostaria|"
    r"eu\s+\p{L}{2,}ria|\p{L}{2,}(?:ría|aria|eria|iria)|aș|vreau\s+să|iste(?:diğim|rdim|rim)|"
    r"\p{L}{2,}(?:mek|mak)\s+ist(?:i|er)\p{L}*|würde\s+ich|ich\s+würde|möchte\s+ich|ich\s+möchte|zou\s+ik|ik\s+zou|"
    r"wil\s+ik|ik\s+wil|skulle\s+jag|jag\s+skulle|vill\s+jag|jag\s+vill|ville\s+jeg|jeg\s+ville|vil\s+jeg|jeg\s+vil|"
    r"бы|хочу|хотел\w*|\p{L}*bym|chciał\w*|chcę|bych|chci|\p{L}{3,}(?:isin|isimme)|(?!(?:po|za)znamen)\p{L}{2,}(?:nám|ném)|θα|θέλω|"
    r"ingin|mau|nak|muốn|चाहूँगा|चाहूँगी|चाहता|चाहती|চাই|ningependa|ningetaka|nataka|(?:ש|כש)?הייתי|אני\s+רוצה|أود|أريد)(?!\w)|"
    r"想|打算|たい|싶어요|싶습니다|싶은",
    regex.IGNORECASE,
)
# The writer asking leave for a step of their own, by a first-person modal of permission or
# ability ("je peux", "pot să", "güncelleyebilir miyim", "Hozzáadhatom", "Voinko") or as the
# subject of a verb the reader is asked to be fine with ("que ho desi", "se eu salvar", "if I add")
_MY_LEAVE_ASKED = regex.compile(
    r"(?<!\w)(?:(?:can|may|could|shall|should)\s+I|if\s+I|je\s+peux|puis-je|pourrais-je|dois-je|est-ce\s+que\s+je|"
    r"(?:que|si)\s+(?:je|j['’])|puedo|podría|debo|posso|potrei|devo|poderia|puc|podria|pot(?:\s+să)?|să\s+\p{L}{3,}|"
    r"\p{L}{3,}(?:abilir|ebilir)\s+m[iı]y[iı]m|\p{L}{2,}(?:ayım|eyim)\s+m[ıi]|(?:kann|darf|soll)\s+ich|(?:wenn|dass|ob)\s+ich|"
    r"(?:kan|mag|zal)\s+ik|(?:als|dat)\s+ik|(?:kan|får|ska)\s+jag|om\s+jag|(?:kan|må|skal|får)\s+jeg|(?:om|at|hvis)\s+jeg|"
    r"могу|можно|если\s+я|можу|можна|якщо\s+я|mogę|czy\s+mogę|jeśli|můžu|mohu|smím|jestli|\p{L}{3,}(?:nko|nkö)|"
    r"\p{L}{3,}(?:hatom|hetem)|μπορώ|να\s+(?:το|τα)|boleh(?:kah)?|bisa(?:kah)?|(?:saya|aku)|được\s+không|क्या\s+मैं|"
    r"(?:que|si|se)\s+(?:lo|la|los|las|ho|l['’])\s*\p{L}{2,}|(?:se|si)\s+eu|eu\s+\p{L}{3,}|আমি\s+কি|naweza|"
    r"אפשר|אוכל|هل\s+يمكنني|يمكنني)(?!\w)|"
    r"我(?:可以|能)|可以吗|行吗|てもいい|てもよろしい|\p{Hangul}도\s*(?:될까요|괜찮을까요|되나요|괜찮나요|돼요|괜찮아요|괜찮습니까)|ได้ไหม|ได้มั้ย",
    regex.IGNORECASE,
)
# A place the block would go, of the reader's ("à ton profil", "en tu perfil", "to your notes"):
# it names no step or object of the reader's own
_YOUR_PLACE = regex.compile(
    r"(?<!\w)(?:à|a|en|in|into|on|to|dans|nel|nella|no|na|do|zu|ins|au|al|w|v|в|do)\s+"
    r"(?:ton|ta|tes|tu|tus|tuo|tua|teu|your|dein\w*|je|jouw|din|ditt|dina|твой|твоё|твою|тво\w+|twoj\w*|tvého|tvůj|tvém)"
    r"\s+\p{L}+",
    regex.IGNORECASE,
)
# How the block is written, pointing back at it ("așa", "böyle", "desse jeito", "így", "näin")
_SO_BACK = regex.compile(
    r"(?<!\w)(?:așa|aşa|böyle|şöyle|desse\s+jeito|deste\s+jeito|dessa\s+forma|de\s+esta\s+forma|de\s+cette\s+façon|"
    r"comme\s+ceci|takhle|tak|tak\s+jak|így|näin|noin|έτσι|slik|sådan|sånn|auf\s+diese\s+Weise|als\s+volgt|"
    r"seperti\s+ini|macam\s+ini|macam\s+ni|như\s+vậy|như\s+thế|ऐसे|यूँ|এভাবে|hivi|ככה|هكذا|així|aixi)(?!\w)|"
    r"这样|這樣|このまま|こう|이렇게|이대로|แบบนี้",
    regex.IGNORECASE,
)
# Hebrew marks a definite object with "את", which also spells "you"
_ACCUSATIVE = regex.compile(r"(?<!\w)את(?=\s+(?:זה|ה\p{L}))")
_LEAVE_WORDS = 10
_BARE_LEAVE_WORDS = 3  # (a modal and its verb, the object unsaid: "Posso incluir?")
_LEAVE_CHARS = 30  # (where no spaces part the words)


def _proposes(before: str) -> bool:
    """Whether the line before a block proposes it (:data:`_PROPOSES`) in its last clause ("I'd
    love to help, so saving it:" makes the block) and reports nothing done."""
    lead = last_sentence(before[:LINE_CHARS])
    mark = _CLAUSE_MARK.search(lead)
    lead = lead if mark is None else lead[mark.end() :]
    return _PROPOSES.search(lead) is not None and not reports_done(before) and _ALMOST.search(lead) is None


def _asks_leave(line: str) -> bool:
    """Whether ``line``, a short question right after a block, asks leave for the writer's step on
    it (:data:`_MY_LEAVE_ASKED`): pointing back at it, by a pronoun or how it is written, or naming
    no object but the reader's place it would go ("Je peux l'ajouter à ton profil ?", "Böyle
    güncelleyebilir miyim?"). One that asks for more, for something too, for a later time or with
    a question word offers another step."""
    if _ASK_MARK(line[-_ASK_TAIL:]) is None and not line.rstrip().endswith((";", "ไหม", "มั้ย")):
        return False
    said = sentences(line[:LINE_CHARS].strip())
    text = _without_signs(said[-1].strip()) if said else ""
    if not text.endswith((*_ASKS, ";")) and not UNSPACED.search(text[-4:]):
        return False
    if _MY_LEAVE_ASKED.search(text) is None:
        return False
    for words in (_TOO, _BESIDES, _FOR_MORE, _LATER, _ANOTHER, _ASKED_DONE):
        if words.search(text) is not None:
            return False
    if _QUESTION_WORD.search(_YES_NO.sub(" ", text)) is not None:
        return False
    if UNSPACED.search(text):
        bare = _SO_BACK.sub("", _MY_LEAVE_ASKED.sub("", text))
        return len(text) <= _LEAVE_CHARS and _NOT_MY_STEP_CJK.search(bare) is None
    if len(text.rstrip(" \t?？!").split()) > _LEAVE_WORDS:  # (French sets its "?" apart: no word)
        return False
    rest = _YOUR_PLACE.sub(" ", text)
    # (a word for the block or its manner that spells "you" elsewhere points back at it: Finnish
    # "sen", Malay "macam ni", Hebrew "את" before its object)
    if _YOU_ANYWHERE.search(_POINTS_BACK.sub(" ", _SO_BACK.sub(" ", _ACCUSATIVE.sub(" ", rest)))) is not None and (
        _WANT_ME.search(rest) is None
    ):
        return False
    return (
        _POINTS_BACK.search(rest) is not None
        or _SO_BACK.search(rest) is not None
        or _OBJECT_BACK.search(rest) is not None
        or _CLITIC_BACK.search(rest) is not None
        or len(rest.split()) <= _BARE_LEAVE_WORDS
    )


# The French first person with an object pronoun for the block ("que je l'ajoute", "si je le note")
_CLITIC_BACK = regex.compile(r"(?<!\w)(?:je|j['’])\s*(?:l['’]|le\s+|la\s+|les\s+)\p{L}", regex.IGNORECASE)


# A question whether the reader wants the writer to do something ("Want me to save it?", "Tu veux
# que je l'enregistre ?", "Quer que eu salve isso?", "要我保存吗？")
_WANT_ME = regex.compile(
    r"(?<!\w)(?:(?:want|like)\s+me\s+to|(?:quieres|quiere|queréis|quieren|quer|queres|querem|veux|voulez|vuoi|vuole|"
    r"volete|willst|möchtest|wollen\s+sie|möchten\s+sie|wil\s+je|wilt\s+u|vill\s+du|vil\s+du|chcesz|chcete|"
    r"chceš)(?:\s+(?:du|tu|vous|je|u))?,?\s+(?:que|che|dass|że|at|att|dat|abych)|(?:хочешь|хотите|хочеш|хочете),?\s+(?:чтобы|щоб)\s+я|"
    + _WISH_MY_STEP
    + r"|"
    # ("do you mind if I": "Ça te dérange si je le note ?", "¿Te importa si lo guardo?", "Ti dispiace se
    # lo salvo?", "Stört es dich, wenn ich das speichere?")
    r"(?:ça|cela)\s+(?:te|vous)\s+(?:dérange|gêne|embête|va)\s+(?:si|que)\s+(?:je|j['’])|"
    r"(?:tu\s+es|vous\s+êtes|t['’]es|es-tu|êtes-vous)\s+d['’]accord\s+(?:pour\s+que|si)\s+(?:je|j['’])|"
    r"(?:te|le|os|les)\s+importa\s+(?:si|que)|(?:ti|le|vi)\s+(?:dispiace|va(?:\s+bene)?)\s+(?:se|che)|"
    r"(?:se\s+)?importa\s+se\s+eu|(?:stört|macht)\s+es\s+(?:dich|dir|Sie|Ihnen)(?:\s+\w+)?,?\s+wenn\s+ich)(?!\w)|要我|"
    r"してほしい",
    regex.IGNORECASE,
)


# A sentence after a block that points back at it as what would be made, not what was ("This
# is the change I'd make.", "Questa sarebbe la nota.", "Essa seria a alteração."): a
# demonstrative, then a verb in the conditional.
_WOULD_BE = regex.compile(
    # the block named as what would be made ("This would be the note.", "Questa sarebbe la nota."),
    # not any sentence in the conditional ("That would be all!")
    r"[\W_]{0,3}(?:(?:(?:this|that)(?:\s+one)?\s+would\s+be|(?:questa|questo)\s+sarebbe|"
    r"(?:essa|esta|este|esse|isso|isto)\s+seria|(?:esta|este|eso|esto)\s+sería|(?:ce|cela|ça)\s+serait|"
    r"(?:das|dies)\s+wäre|(?:dit|dat)\s+zou\s+(?:zijn|worden)|(?:det|detta|dette)\s+(?:skulle|ville)\s+(?:vara|være|være))"
    r"\s+(?:the|my|a|an|la|il|lo|l['’]|una?|o|uma|el|le|une|der|die|das|mein|meine|de|het|mijn|den|det|min|mitt)(?!\w)|"
    # or as what the writer would make ("This is the change I'd make.", "Voici ce que je noterais.")
    r"(?:this|that|here)\s+is\s+(?:what|how|the\s+\w+(?:\s+\w+)?)\s+I['’]d(?!\w)|"
    r"(?:questa|questo|ecco)\s+è\s+(?:quello\s+)?che\s+\w+rei(?!\w)|"
    r"(?:voici|voilà|c['’]est)\s+ce\s+que\s+(?:je\s+|j['’])\w+rais(?!\w))",
    regex.IGNORECASE,
)
_WOULD_BE_WORDS = 10
# The words :data:`_WOULD_BE` opens with
_POINTERS = frozenset(
    [
        "this",
        "that",
        "here",
        "questa",
        "questo",
        "ecco",
        "essa",
        "esta",
        "este",
        "esse",
        "isso",
        "isto",
        "eso",
        "esto",
        "ce",
        "cela",
        "ça",
        "voici",
        "voilà",
        "das",
        "dies",
        "dit",
        "dat",
        "det",
        "detta",
        "dette",
    ]
)


def _would_be(line: str) -> bool:
    """Whether ``line`` opens with a short sentence that points back at the block as what would
    be made."""
    word = _first_word(line)
    if (word not in _POINTERS and not word.startswith(("c'", "c’"))) or _WOULD_BE.match(line) is None:
        return False
    return len(sentences(line)[0].split()) <= _WOULD_BE_WORDS


_OTHER_OBJECT = regex.compile(
    r"\b(?:disregard|scratch|scrap|never\s+mind|ignore|forget(?:\s+about)?)\s+(?:the|that|this|my|your|any)\s+"
    r"(?!(?:block|call|one|entry|update|change|command|request|line|note|save|insert|search|edit|version|above|"
    r"previous|last|first|earlier|it)\b)[a-z]+\b",
    regex.IGNORECASE,
)


# A bare question in which the writer asks leave for a step of their own, a modal in the first
# person and a verb or two after it ("Posso salvar?", "Soll ich speichern?", "Shall I save
# it?"): where the verb is one of making the block (:data:`BARE_QUESTIONS`) it asks leave
# whatever the line above said was done, while consent alone ("Okay?") after "Saved:" checks
# what ran, and an offer of help ("Posso ajudar?") is about something else.
_MY_LEAVE = regex.compile(
    r"[\W_]{0,3}(?:(?:shall|should|may|can)\s+I|posso|devo|puedo|debo|(?:soll|darf|kann)\s+ich|puis-je|"
    r"(?:zal|mag|moet)\s+ik|(?:ska|får)\s+jag|(?:skal|må)\s+(?:jeg|eg))"
    r"(?:\s+[^\W\d_]+){1,2}[ \t]*[?？][ \t]*$",
    regex.IGNORECASE,
)
# An infinitive with the block as its object ("guardarlo", "salvarla"), not the reader ("ayudarte")
_INFINITIVE_IT = regex.compile(r"[^\W\d_]{2,}[aeií]r(?:lo|la|los|las|li|le)(?!\w)", regex.IGNORECASE)


# The verb of keeping the block, as the writer's next step (not its past: "Saved it right?")
_KEEP_VERB = regex.compile(
    r"(?<!\w)(?:save|store|keep|note|record|log|jot|speichern|speichere|sichern|notieren|notiere|eintragen|"
    r"behalten|aufnehmen|merken|opslaan|bewaren|noteren|vastleggen|onthouden|guardar\w*|guardo|guarde|anotar\w*|"
    r"anoto|apunto|apuntar\w*|registrar\w*|registro|salvar\w*|salvo|salve|garde|garder|enregistre|enregistrer|"
    r"note|noter|conserve|conserver|salvare|salvarl\w|memorizzare|annotare|segnare|сохранить|сохраню|записать|"
    r"запишу|запомнить|зберегти|збережу|записати|запишу|simpan|disimpan|simpankan|catat|dicatat|catatkan|gemme|"
    r"gemmes|lagre|lagres|spara|sparas|spare|notere|notera|zapisać|zapisz|zachować|kaydedeyim|kaydedilsin|"
    r"lưu|सेव|सहेज|नोट|दर्ज)(?!\w)|保存|记下|记住|存|記録|登録|メモ|覚えて|저장|기록",
    regex.IGNORECASE,
)
# the block as an object pronoun before the verb ("que je le garde", "¿La guardo?")
_CLITIC = regex.compile(r"(?<!\w)(?:le|la|les|los|las)(?!\w)", regex.IGNORECASE)
_OR_REFUSAL = regex.compile(r"[,，]?[ \t]+(?:or|o|ou|oder|of|eller|или|або|czy|atau)[ \t]+", regex.IGNORECASE)
_ELIDED = regex.compile(r"(?<!\w)l['’](?=\w)", regex.IGNORECASE)
_KEEP_WORDS = 4  # words of a question that keeps the block with no object of its own
_KEEP_ANAPHOR_WORDS = 8
_JA_ASKS = ("か。", "か", "かな。")
_CJK_MORE = ("他", "ほか", "别的", "還有", "还有", "다른", "또")


# The reader asked whether the writer should make the step, pointing back at the block by a
# pronoun ("Vous voulez que je garde ça dans vos notes ?", "Je le fais ?", "你同意我把这条记下来
# 吗？"); not a further step ("aussi", "autre chose", "te le rappeler")
_MAKE_IT_ASKED = regex.compile(
    r"\b(?:tu\s+veux|vous\s+voulez|veux-tu|voulez-vous)\s+que\s+je\s+(?:(?:(?:le|la|les)\s+|l['’])?\w+\s+"
    r"(?:ça|cela|ceci)\b|(?:(?:le|la|les)\s+|l['’])\w+\b)(?![^\n]*\b(?:aussi|également|autre))[^\n]*\?|"
    r"^\W{0,3}je\s+(?:(?:le|la|les)\s+|l['’])\w+\s*\?|"
    r"你同意我(?:把(?:它|这个|这条|这些))?(?:存|保存|记|记录|添加|加|写)[^\n？?]{0,8}[吗么]",
    regex.IGNORECASE,
)


def _asks_to_make_it(line: str) -> bool:
    # (most lines after a block ask nothing, and few hold the words)
    if _ASK_MARK(line) is None and "吗" not in line and "么" not in line:
        return False
    return ("je" in line.lower() or "你同意我" in line) and _MAKE_IT_ASKED.search(line) is not None


def _asks_to_keep(line: str, *, too: bool = False) -> bool:
    """Whether ``line`` is a question whose verb is keeping the block and whose object is the
    block itself, pointed back at or left unsaid ("¿Lo guardo así?", "Soll ich das so speichern?",
    "Boleh disimpan?", "Tu veux que je le garde en mémoire ?"): the step is not taken yet,
    whatever the lead above said. One that asks for more, or for something too ("Should I also
    save your sister's birthday?"), or with a question word, asks about another step. With
    ``too`` (the last of several blocks, under a lead of its own) the block may be asked for as
    one more, pointed back at ("okay to store it too?", "这条也要存吗？"); only its last clause
    is read ("That one's health info, so I'd rather check first: okay to store it too?")."""
    if _ASK_MARK(line) is None and "か" not in line:
        return False  # (most lines after a block ask nothing)
    # only the last sentence asks ("Sudah disimpan. Benar begitu?" checks what was done)
    text = _without_signs(sentences(line[:LINE_CHARS].strip())[-1].strip())
    if too:
        text = text[text.rfind(":") + 1 :].strip() if ": " in text else text
    if (refusal := _OR_REFUSAL.search(text)) is not None and _REFUSED.search(text, refusal.end()) is not None:
        text = text[: refusal.start()] + text[-1:]  # (the refusal offered after "or" is no other step)
    if not (text.endswith(_ASKS) or (text.endswith(_JA_ASKS) and UNSPACED.search(text))):
        return False
    if _KEEP_VERB.search(text) is None:
        return False
    if (not too and _TOO.search(text)) or _FOR_MORE.search(text) or _QUESTION_WORD.search(text):
        return False
    if _ASKED_DONE.search(text) or _LATER.search(text) or _ANOTHER.search(text):
        return False  # (what was done, checked; or a later time or another thing: "Записать завтра?")
    if UNSPACED.search(text):
        # (those words have no spaces around them here: "他にも保存しますか？" asks for more)
        if (not too and _CJK_YOU_TOO.search(text)) or any(more in text for more in _CJK_MORE):
            return False
        back_cjk = _BACK_CJK.search(text) is not None
        return len(text) <= 24 and (back_cjk or (not too and len(text) <= 12))
    words = len(text.rstrip("?？ \t").split())
    back = _BACK.search(text) is not None or _CLITIC.search(text) is not None
    return (not too and words <= _KEEP_WORDS) or (back and words <= _KEEP_ANAPHOR_WORDS)


# A word that asks whether something is right, and nothing of a step ("Riktig?", "सही लिखा?",
# "Spelled right?", "对吗？")
_CORRECT = regex.compile(
    r"(?<!\w)(?:right|correct|accurate|riktig|rigtigt?|rätt|richtig|korrekt|correct[oa]|juste|exact|certo|"
    r"corrett[oa]|giusto|верно|правильно|вірно|klopt|dobrze|poprawnie|správně|oikein|helyes|doğru|benar|betul|"
    r"đúng|σωστά|σωστό|صحيح|تمام|درسته|خوبه|נכון|सही|ঠিক)(?!\w)|对吗|對嗎|对不对|正しい|合って|맞아|맞나|맞죠|ถูกไหม|ถูกต้องไหม",
    regex.IGNORECASE,
)
_CHECK_WORDS = 3
_TERSE_CHARS = 16  # a one-line report in a script without spaces


def _checks_only(line: str, *, any_words: bool = False) -> bool:
    """Whether ``line`` is a bare question of a few words that only checks the block is right
    ("Riktig?", "Spelled right?", "सही लिखा?", "Jó így?"), naming no step: it asks no leave where the line
    above the block reports it done in a word or two."""
    text = _without_signs(line.strip())
    if _KEEP_VERB.search(text) is not None:
        return False
    if _CORRECT.search(text) is None and not (
        any_words and ((asked := text.rstrip(" *_")).endswith(("?", "？")) or _greek_question(asked))
    ):
        # without a word of correctness the line must ask ("Jó így?", "Sawa?"): after a report
        # of one word, a bare short question naming no step can only check what was done
        return False
    if UNSPACED.search(text):
        return len(text) <= _TERSE_CHARS
    # (French spaces its question mark: "Ça te va ?" is three words)
    return len(text.rstrip(" \t?？!;").split()) <= _CHECK_WORDS and _FOR_MORE.search(text) is None


def _terse_report(before: str) -> bool:
    """Whether the line before the block is a sentence of a word or two and nothing else
    ("Lagret.", "Zapamiętane.", "सेव हो गया।" reads as three): the terse done report, in any
    language, that such a line always is before a block of its own."""
    text = before.strip(" \t*_")
    if not text.endswith((".", "!", "।", "。", "！")) or _NO_REPORT.search(text) is not None:
        return False
    if UNSPACED.search(text):
        return len(text) <= _TERSE_CHARS
    return len(text.split()) <= _CHECK_WORDS and len(text) <= 3 * _TERSE_CHARS


# A one-word sentence that names the block a draft or hedges it ("Vorschlag.", "Maybe."): no report
_NOT_DONE_WORD = regex.compile(
    r"(?<!\w)(?:" + _NAMED_NOUN[_NAMED_NOUN.index("(?:rough") :] + r"|example|beispiel|ejemplo|exemple|exemplo|"
    r"esempio|voorbeeld|пример|приклад|przykład|příklad|exempel|eksempel|esimerkki|örnek|contoh|ví\s+dụ|"
    r"παράδειγμα|exemplu|példa|maybe|perhaps|vielleicht|misschien|quizás?|peut-être|talvez|forse|"
    r"возможно|может|можливо|może|možná|kanske|kanskje|måske|ehkä|belki|mungkin|ίσως|poate|talán|idea|idee|"
    r"idée|ideia|option|optie|opción|opzione|opção|pendekezo|rasimu|mfano|labda)(?!\w)",
    regex.IGNORECASE,
)


def _one_word(before: str) -> bool:
    """Whether the line before the block is a sentence of one word ("Mentve.", "Imehifadhiwa."),
    in a script with spaces, that neither names the block a draft nor hedges it."""
    text = before.strip(" \t*_")
    return " " not in text and UNSPACED.search(text) is None and _NOT_DONE_WORD.search(text) is None


# The writer as the subject of a step taken now or next, in the auxiliaries and persons that
# say so: the progressive, the near future, "let me" ("I'm saving", "I'll note", "voy a",
# "je vais", "ich werde", "vou", "lass mich", "déjame", "laisse-moi")
_MY_STEP_NOW = regex.compile(
    r"(?<!\w)(?:i['’]m\s+(?:going\s+to\s+\w+|\w+ing)|i\s+am\s+(?:going\s+to\s+\w+|\w+ing)|i['’]ll|i\s+will|"
    r"let\s+me|voy\s+a|estoy\s+\w+(?:ando|iendo)|d[ée]jame|je\s+vais|laisse[- ]moi|ich\s+werde|lass\s+mich|"
    r"vou|estou\s+\w+ndo|deixa\s+eu|deixe-me|sto\s+\w+ndo|lascia(?:mi)?\s+che|"
    # (the first person's present with an object pronoun: "je le note", "ich speichere das")
    r"je\s+(?:l['’]|le\s+|la\s+|les\s+)\w+|ich\s+\w+e\s+(?:das|es|den|die|dir|sie|ihn)|"
    r"j['’](?:ajoute|enregistre|inscris|actualise)|je\s+(?:note|garde|retiens|sauvegarde|rajoute|mets\s+à\s+jour|cherche|"
    r"recherche|vérifie|lance|regarde|consulte|liste|ouvre|examine|calcule|exécute))(?!\w)",
    regex.IGNORECASE,
)
# A lead that hedges the step it names: a modal of possibility or the conditional ("I could
# save it:", "Lo guardaría:", "Je pourrais le noter :"), or the manner of a sample ("like this:")
_HEDGED = regex.compile(
    r"(?<!\w)(?:can|may|shall|should|\w+['’]d|podría\w*|\w+ría(?:s|mos)?|pourr\w*|\w+rais|\w+rait|könnte\w*|"
    r"sollte\w*|hätte\w*|wäre|würde\w*|potrei|potrebbe|\w+rei|\w+rebbe|poderia|zou|kan|kunnen|skulle|kunde|kunne|mógł\w*|\w+łbym|"
    r"bych|mohl\w*|можно|мог\w*|міг|могу|можу|like\s+(?:this|so)|as\s+follows|así|ainsi|comme\s+(?:ça|ceci)|"
    r"folgendermaßen|assim|così|zo|så\s+här|sådan|slik)(?!\w)",
    regex.IGNORECASE,
)


# The same step in the other languages, by their first person's inflection or auxiliary:
# the present, future and past persons and the perfective (tr -iyorum/-acağım/-dım, sw
# ni-na-/ni-ta-/ni-me-, vi đang/sẽ/đã, zh 我在/我会/已/了, ja ～ます/～ました, ru/uk/pl/cs the
# first person singular), or a lead that is only the step's participle ("Uloženo:", "Disimpan:")
_MY_STEP_INTL = regex.compile(
    r"[\W_]{0,3}(?:(?:ni(?:na|ta|me|li)\w{3,}|niache|\w+mehifadhiwa|"
    # (English: a verb of keeping in the progressive, its subject dropped, "Adding to memory:")
    r"(?:adding|saving|storing|noting|updating|recording|logging|jotting|archiving)\s+(?:it|this|that|these|them|to|"
    r"in|into|your|the)|"
    r"(?:mình|tôi|tớ|em)\s+(?:đang|sẽ|đã|vừa|\w+)|để\s+(?:mình|tôi)|đã\s+\w+|"
    r"(?:aku|saya)\s+(?:akan\s+|sedang\s+)?\w+|(?:akan\s+)?ku\w{4,}|biar\s+(?:aku|saya|ku)\w*|(?:ter|di)(?:simpan|catat|perbarui|tambahkan|rekam)\s*:|"
    r"(?:я\s+|давай\s+я\s+|дай\s+я\s+)?(?:(?:это|це)\s+)?(?!предлага|пропону)\w+[юу](?:\s+(?:это|це|его|її))?\s*[:,]|"
    r"(?!propon)\w+(?:uję|ę)|\w+(?:ám|ím|uji|uju|íšu)|\w+l[ao]?\s+jsem|\w+eno\s*:|"
    # (pl -am with its object, "Dodam to"; an adverb of time first, "Już zapisuję", "Hned to uložím")
    r"\w+am\s+(?:to|je|go|sobie)(?!\w)|(?:już|teraz|zaraz|od\s+razu|hned|teď|rovnou|ihned)\s+(?:(?:to|si|ti)\s+)*"
    r"\w+(?:uję|ę|ám|ím|uji|uju|íšu)|"
    # (ru/uk the first person's present or future before a place or a manner: "Додаю до пам'яті:",
    # "Записываю в профиль:", "Запишу в профиль в привычном формате:", "Я сохраню это как список")
    r"(?!предлага|пропону|предлож|покаж|мог|мож|хоч)\w+[ую]\s+(?:(?:это|це|его|её|її|их|їх)\s+)?"
    r"(?:до|в|во|у|на|к|как|як)(?=\s)|"
    # (el: the present's -ω, not the adverbs of place "παρακάτω", "πάνω", "έξω", "μέσω")
    r"(?!(?:παρα)?κάτω|(?:από|επά)?νω|πάνω|έξω|μέσω)\w{3,}[ωώ]|"
    # (fi, hu, ro, ms: the first person's present or past of the common verbs)
    r"lisään|kirjaan|merkitsen|tallennan|päivitän|\w+nsin|lisäsin|kirjasin|merkitsin|päivitin|"
    r"\w{3,}(?:ettem|ottam|öttem)|adaug|rețin|caut|verific|(?:o|îl|le)\s+caut|dah\s+\w+|"
    # (it, es, pt, ca: the first person's present of noting, adding, searching and running)
    r"aggiungo|annoto|segno|memorizzo|inserisco|aggiorno|añado|anoto|apunto|actualizo|agrego|adiciono|atualizo|"
    r"acrescento|afegeixo|actualitzo|cerco|busco|procuro|eseguo|ejecuto|executo|"
    # (and of working a sum out: "Vale, sumo los gastos ...", "Calcolo la media")
    r"sumo|calculo|compruebo|reviso|somo|verifico|confiro|sommo|calcolo|controllo|"
    r"ik\s+(?!zou|kan|wil|stel)\w+|laat\s+me|(?:jag|jeg)\s+(?!skulle|kan|kunde|vill|vil|föreslår|foreslår)\w+|"
    r"låt\s+mig|lad\s+mig|la\s+meg|"
    r"\w+(?:ez|esc)|o\s+să|voi\s+\w+|am\s+\w+(?:at|it|ut)|lasă-mă|"
    r"(?:el|fel|meg|hozzá)\w+(?:em|om|öm)|\w+ítem|hadd|ho\s+\w+|estic\s+\w+|he\s+\w+[td]|deixa['’]m|\w+aré|"
    r"(?:θα\s+)?(?:το|τα|τη|την|τον)\s+\w+[ωώα]|άσε\s+με|"
    r"س?أ(?!قترح)\w+|(?:حفظت|سجلت|أضفت|دونت|خزنت)(?!\w)|\w{2,}ته|تم|دعني|אני|א\w{3,}|\w+תי|נשמר|תן\s+לי|"
    r"\w+(?:an|än|in|en)\s+(?:sen|tämän|ne)|annas\s+kun|\w+ttu\s*:|"
    r"\w+e\s+ich\s+(?:es|das|dir|mir|sie|ihn)|(?:lo|la)\s+\w+o|"
    r"(?:guardo|salvo|deso)\s+(?:el|il|o|os|a|as|um|uma|l['’]|nei|nel|nella|nelle|negli|sul|sulla|no|na|nos|nas|la|las|los|"
    r"tu|tus|su|sus|tua|teu|tuo|esta|este|esto|essa|esse|isso|questo|questa)|\w+ando\s+o|je\s+garde)(?!\w)|"
    r"(?:我(?:正在|在|会|要|已经|已|来|先)|让我|已(?:经)?|กำลัง|จะ|ขอ))",
    regex.IGNORECASE,
)
# The same where the verb closes the lead, its person or aspect in the ending right before the
# colon (tr -iyorum/-acağım/-dım, ja ～ます/～ました, hi/bn/fa the auxiliary, zh 了/一下, th แล้ว)
_MY_VERB_LAST = regex.compile(
    r"(?:(?<=\w)(?:iyorum|ıyorum|uyorum|üyorum|ayım|eyim|dım|dim|dum|düm|tım|tim|tum|tüm)|ます|ました|させてください|"
    r"済み|了|一下|แล้ว|เรียบร้อย|ไว้(?:ก่อน)?(?:นะ|ให้)?|रहा\s+हूँ|रही\s+हूँ|लूँगा|लूँगी|लिया|हो\s+गया|दीजिए|করছি|রাখব|"
    r"করেছি|হয়েছে|দিন|করব|\p{Bengali}+লাম|(?<!चाह|सक)(?:ता|ती)\s+हूँ|(?<=मैंने[^\n]{0,80})(?:दिया|लिया|किया)|می‌کنم|کردم|شد|کنم|"
    # ko: a verb of keeping or changing in the promissive, formal present or past ("저장할게요", "남겨 둘게요",
    # "추가했습니다"); the bare declarative ("다음과 같습니다:") only presents
    r"(?:저장|기록|추가|메모|업데이트|변경|수정|반영|적용|검색|실행|전송|보관|등록|정리)(?:할게요|할게|하겠습니다|하겠어요|합니다|"
    r"했어요|했습니다|해\s*(?:둘게요|둘게|뒀어요|두었습니다|놓을게요|놨어요|드릴게요|드렸어요)|하는\s*중이에요|중입니다)|"
    r"(?:남길|남겨\s*둘|적어\s*둘|기억해\s*둘|넣어\s*둘|찾아\s*볼|바꿔\s*둘)게요|(?:남겼|남겨\s*뒀|적어\s*뒀|기억해\s*뒀|"
    r"넣어\s*뒀|찾아봤|바꿨|고쳤)(?:어요|습니다))[ \t]*[:：]$",
    regex.IGNORECASE,
)
# A short question that asks the writer's leave by the step's own verb, in those languages: the
# optative or subjunctive of the first person (tr -eyim mi, hi दूँ/लूँ, ko -까요), an infinitive
# standing alone (he ל-), a modal of leave (boleh, bisa, てよい), or "go ahead" (th เลยไหม)
_LEAVE_INTL = regex.compile(
    r"(?:eyim|ayım|yim|yım)\s+m[ıi]|^[\W_]*(?:ho|l['’])\s*\w+\s*[?？]$|दूँ|लूँ|करूँ|দেব|করব|까요|^[\W_]*ל\w+[?？]|(?<!\w)(?:boleh|bisa|mau|nak)(?!\w)|"
    r"てよい|ても(?:いい|よい)|ましょうか|เลยไหม|ได้ไหม|要我|吗.{0,2}$(?<=[要让]我.*)|có\s+nên|"
    r"(?<!\w)(?:salvez|notez|mentsem|ni\w+e|zapisać|zapisywać|записать|записати|сохранить|зберегти|θα\s+το)(?!\w)",
    regex.IGNORECASE,
)
_JOINED = regex.compile(r"\w+[ \t]+")
# The hedges of those languages: a modal of possibility, the conditional, "for example", "if"
_HEDGED_INTL = regex.compile(
    r"可以|能|可能|比如|例如|如下|这样|でしょう|かも|ふうに|こう|こんな|そんな|思います|แบบนี้|อย่างนี้|이렇게|이런|例えば|以下|ように|ような|อาจ|ได้|ถ้า|เช่น|"
    r"có\s+thể|ví\s+dụ|nếu|bisa|boleh|misalnya|contoh|kalau|"
    r"(?<!\w)(?:aș|ar|pot|putea|de\s+exemplu|astfel|például|így|lehet\w*|(?!(?:po|za)znamen)\w+nám|\w+ném|"
    r"(?!ange(?:bot|häng|leg|meld|nehm|pass|stell|zeig|geb))(?:ni|tu|u|a|wa|m|ki|li|i|zi|ya|ku)nge\w+|kwa\s+mfano|kama|hivi|μπορ\w*|θέλω|ήθελα|\w+ούσα|π\.χ|παράδειγμα|έτσι|όπως|يمكن\w*|أستطيع|أود|أريد|أرغب|می‌خواهم|میخواهم|می‌خوام|مثل\w*|إذا|لو|هكذا|"
    r"كالتالي|אם|יכול\w*|למשל|כמו|כך|אפשר|esimerkiksi|voisin|\w+isin|näin|bilir\w*|örneğin|gibi|şöyle|"
    r"например|напр|podobně|například|takto|takhle|na\s+przykład|tak|bijvoorbeeld|als|zoals|till\s+exempel|"
    r"for\s+eksempel|f\.eks|per\s+exemple|podria|\w+aria|com|així(?!\s+que)|begini\w*|beginilah|begitu|gini|gitu|seperti|sebagai|thế\s+này|như\s+vầy|এভাবে|định|ככה|הייתי|\w+acağım|\w+eceğim|düşün\w*|planl\w*)(?!\w)|"
    r"सकता|सकती|चाहिए|जैसे|अगर|পারি|পারব|যেমন|যদি|می‌توانم|اگر|مثلاً|مثل",
    regex.IGNORECASE,
)


# A lead whose step is showing or proposing the block, not making it ("I'll show you the entry:",
# "I'm suggesting this:", "Δείχνω:", "Показываю в профиле:"): a check under it asks for approval
_PRESENTS_STEP = regex.compile(
    r"(?<!\w)(?:show(?:s|ing)?|present(?:s|ing)?|propos(?:e|es|ing)|suggest(?:s|ing)?|recommend(?:s|ing)?|"
    r"quot(?:e|es|ing)|illustrat(?:e|es|ing)|display(?:s|ing)?|preview(?:s|ing)?|draft(?:s|ing)?|sketch(?:es|ing)?|"
    r"demonstrat(?:e|es|ing)|mock(?:ing)?\s+up|montre|présente|suggère|recommande|cite|affiche|propongo|"
    r"muestro|presento|sugiero|recomiendo|enseño|cito|proponho|mostro|apresento|sugiro|recomendo|suggerisco|"
    r"consiglio|raccomando|zeige|schlage|empfehle|präsentiere|zitiere|toon|stel\s+voor|raad\s+aan|visar|"
    r"föreslår|viser|foreslår|anbefaler|rekommenderar|показываю|покажу|предлагаю|предложу|рекомендую|советую|"
    r"привожу|цитирую|показую|пропоную|раджу|наводжу|pokazuję|pokażę|proponuję|sugeruję|polecam|przedstawiam|"
    r"ukážu|ukazuji|ukazuju|navrhuji|navrhuju|navrhnu|doporučuji|doporučuju|předkládám|uvádím|δείχνω|προτείνω|"
    r"παραθέτω|παρουσιάζω|συστήνω|näytän|ehdotan|suosittelen|esitän|mutatom|javaslom|ajánlom|bemutatom|arăt|"
    r"propun|sugerez|recomand|prezint|gösteriyorum|göstereyim|öneriyorum|öneririm|sunuyorum|(?:menunjuk|tunjuk|kutunjuk)\w*|"
    r"(?:meng)?usulkan|(?:meny|s)arankan|đề\s+xuất|gợi\s+ý|cho\s+bạn\s+xem|\w{0,4}pendekez\w*|\w{0,5}onyesh\w*|proposo|"
    r"suggereixo|أقترح|أعرض|מציע|מציעה|מראה|מציג|מציגה)(?!\w)|दिखा|सुझाव|प्रस्ताव|建议|推荐|展示|给你看|提案|お見せ|"
    r"示します|제안|보여|پیشنهاد|نشان|দেখাচ্ছি|প্রস্তাব|เสนอ|แสดง",
    regex.IGNORECASE,
)


def _acts_in_lead(before: str, after: str | None = None) -> bool:
    """Whether the line before a block is a lead of its own that names the writer's step in the
    indicative ("I'm saving this:", "I'll note it:", "Let me add that:", "Lo anotaré:"): it ends in
    a colon, asks nothing, and neither negates, conditions nor hedges the step. A bare check after
    such a block ("OK?") asks whether the content is right, not leave to make it. In the other
    languages only for ``after``, the question right under the block, where it does not ask leave
    by the step's own verb ("Ekleyeyim mi?", "Boleh?")."""
    line = before[:LINE_CHARS].strip(" \t*_")
    return (
        _ends_in_colon(line)
        and _ASK_MARK(line) is None
        and _NO_REPORT.search(line) is None
        and _HEDGED.search(line) is None
        and (
            _MY_STEP_NOW.search(line) is not None
            or (
                (
                    _MY_VERB_LAST.search(line) is not None
                    or _MY_STEP_INTL.match(line) is not None
                    # (a clause after a comma, also past the word that joins it: "..., so I'm noting it:")
                    or any(
                        _MY_STEP_INTL.match(line, m.end()) is not None
                        or (
                            (j := _JOINED.match(line, m.end())) is not None
                            and _MY_STEP_INTL.match(line, j.end()) is not None
                        )
                        for m in _CLAUSE_STARTS.finditer(line)
                    )
                )
                and _HEDGED_INTL.search(line) is None
                # (past a blank line the question stands apart, as likely a new matter or leave asked)
                and after is not None
                and _LEAVE_INTL.search(after) is None
            )
        )
        # (last: the step is known by now, and this long list is searched for few lines)
        and _PRESENTS_STEP.search(line) is None
    )


# A question that opens on the writer's own leave ("Shall I?", "¿Puedo?", "Darf ich?")
_MY_LEAVE_OPEN = regex.compile(
    r"[\W_]{0,3}(?:(?:shall|should|may|can)\s+I|posso|devo|puedo|debo|(?:soll|darf|kann)\s+ich|puis-je|"
    r"(?:zal|mag|moet)\s+ik|(?:ska|får)\s+jag|(?:skal|må)\s+(?:jeg|eg))(?!\w)",
    regex.IGNORECASE,
)


def _checks_content(line: str) -> bool:
    """Whether a short question after a block only checks what it holds ("OK?", "Is that
    right?"), asking neither the writer's leave ("Shall I?") nor for a step."""
    return _checks_only(line, any_words=True) and _MY_LEAVE_OPEN.match(line) is None


def _wants_me(line: str) -> bool:
    """Whether a short question after a block asks if the reader wants the writer to make it, and
    no other step besides: after a line that says it is done ("J'ai noté ton nouveau poste dans le
    bloc ci-dessous." / "Tu veux que je l'enregistre ?") it asks leave all the same, and the
    block waits, as a longer request does."""
    return _WANT_ME.search(line) is not None and _TOO.search(line) is None


_CLOSING_LINES = 4  # lines that may stand between a block and the question that closes the reply


def _closing_question(after: str) -> str | None:
    """The question that closes the reply, on a line of its own past a blank line, where every
    line between it and the block is a statement that reports nothing done (no question, no
    "Saved.", no "I've updated it"), and that names no later time; None otherwise. It is given
    with the blank line before it."""
    lines = [line.strip() for line in after.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) < 3 or lines[-2] or not lines[-1].endswith(_ASKS) or _LATER.search(lines[-1]) is not None:
        return None  # (a question that names a later time asks about a later step)
    between = [line for line in lines[:-2] if line]
    if not between or len(between) > _CLOSING_LINES:
        return None
    for line in between:
        if _ASK_MARK(line) is not None or DONE.match(line[:LINE_CHARS] + " ") is not None or reports_done(line):
            return None
        if line.endswith((":", "：")) or line.startswith(_SHOWN_STARTS):
            # (a line that leads into something, or a block shown as it stands, comes between:
            # the question is about that)
            return None
    return "\n\n" + lines[-1]


# How a block shown in the prose, or its fence, opens its line
_SHOWN_STARTS = ("```", "~~~", "{", "[", "<")


OFFERED_WITH_NEXT = "the line after it offers the next block as another choice"


_FIRST_ASK = regex.compile(r"[?؟][ \t]+|？[ \t]*")


# A dash that sets the line's last words apart as a question of their own ("..., so I'd rather
# check first — go ahead?", "… je préfère vérifier — d'accord ?")
_DASH_TAIL = regex.compile(r"[ \t](?:—|–|-)[ \t]*(?P<ask>[^—–\n]{1,24})$")


def _dash_tail(line: str, words: int = 2) -> int | None:
    """Where a one-sentence line's closing question of consent set apart by a dash begins (see
    :data:`_DASH_TAIL`): a bare consent of ``words`` words at most, like one on a line of its own."""
    if _ASK_MARK(line[-_ASK_TAIL:]) is None:
        return None
    found = _DASH_TAIL.search(_without_signs(line.strip()))
    if found is None:
        return None
    ask = found.group("ask")
    if not (_short_question(ask) and _bare_shape(ask, words)):
        return None
    if words == 2 and not _BARE.search(_bare_text(ask)):
        return None
    if len(sentences(line.strip())) > 1:
        # A sentence before it is what the question goes on from: "Saved. By the way, ... — used to it yet?"
        return None
    return found.start()


def _dash_consent(line: str) -> bool:
    """Whether the line right after a block, or one that closes the reply past a blank line, ends
    on a question of consent set apart by a dash (see :func:`_dash_tail`), asked of the block the
    line's statement was about."""
    start = _dash_tail(line)
    # (a statement that announces a step of the writer's own in the future asks consent for
    # that step: "I'll use it for reminders from now on — okay?")
    return start is not None and _MY_FUTURE.search(line, 0, start) is None


def _plans_then_consents(line: str) -> bool:
    """Whether a line is the writer's plan in the first person's future, then a consent of a few
    words set apart by a dash ("Voy a usarlo para los recordatorios — ¿vale?", "Je vais m'en servir
    pour les rappels — ça te va ?"): the consent is asked for that later step, not for the block."""
    start = _dash_tail(line, 3)
    return start is not None and _MY_FUTURE.search(line, 0, start) is not None


_MY_FUTURE = regex.compile(
    r"(?<!\w)(?:I['’]ll|I\s+will|I\s+shall|we['’]ll|we\s+will|je\s+vais|on\s+va|voy\s+a|vamos\s+a|(?:eu\s+)?vou|"
    r"ich\s+werde|werde\s+ich|wir\s+werden)(?!\w)",
    regex.IGNORECASE,
)


# A sentence that only asks for the answer, yes or no ("Dis-moi juste oui ou non.", "Just say yes
# or no."): the pair of answer words, no question of its own, a few words at most
_YES_OR_NO = regex.compile(
    r"(?<!\w)(?:yes|sí|si|oui|ja|sim|sì|да|так|tak|ano|evet|ya|igen)[ \t]*(?:,[ \t]*)?(?:or|o|ou|oder|of|eller|или|чи|czy|"
    r"nebo|atau|veya|ya\s+da|vagy|sau|/)[ \t]*(?:(?:a|an|un|una|um|uma|ein|een)[ \t]+)?(?:no|non|nein|não|nee|nej|нет|ні|nie|ne|hayır|tidak|nem|nu)(?!\w)",
    regex.IGNORECASE,
)
_ANSWER_WORDS = 8


def _answer_asked(line: str) -> str | None:
    """The question a line asks, where the sentence after it only asks for its answer, yes or no
    (see :data:`_YES_OR_NO`): that sentence asks for nothing of its own, and the line is judged
    by the question ("Je le fais ? Dis-moi juste oui ou non." asks leave as "Je le fais ?" does;
    "Want me to add the other one too? Just say yes or no." asks about the other one)."""
    q = _question_then(line)
    if q is None:
        return None
    rest = _without_signs(q[1].strip())
    if _ASK_MARK(rest) is not None or len(rest.split()) > _ANSWER_WORDS or _YES_OR_NO.search(rest) is None:
        return None
    return q[0]


# A word that makes a step wait ("only", "until", "before", "after", "once", "without", "only
# then"), or "if" and "when", in the table languages; and the reader's answer that it waits on
# ("your consent", "you say yes", "når du har svart", "ถ้ายืนยัน"). "If anything changes, tell
# me" puts nothing off.
_WAITS = regex.compile(
    r"(?<!\w)(?:only|until|till|unless|before|once|as\s+soon\s+as|after|without|solo|sólo|hasta\s+que|antes\s+de|"
    r"en\s+cuanto|después\s+de|a\s+menos\s+que|seulement|qu['’]après|avant|dès\s+que|une\s+fois\s+que|tant\s+que|"
    r"erst|nur|bis\s+(?:du|ich|sie)|bevor|sobald|ohne|nachdem|só|apenas|até\s+que|assim\s+que|depois\s+que|sem|"
    r"soltanto|finché|prima\s+di|appena|dopo\s+che|senza|только|лишь|пока\s+не|как\s+только|после|без|тільки|лише|"
    r"поки\s+не|як\s+тільки|після|dopiero|tylko|dopóki|zanim|gdy\s+tylko|jak\s+tylko|až|teprve|dokud|jakmile|pas|"
    r"alleen|totdat|voordat|zodra|nadat|zonder|först|bara|tills|innan|så\s+fort|utan|først|kun|indtil|inntil|før|"
    r"så\s+snart|uden|uten|vasta|vain|kunnes|ennen|heti\s+kun|ilman|csak|amíg|mielőtt|amint|nélkül|doar|numai|"
    r"până|înainte|imediat\s+ce|fără|ancak|sadece|μόνο|μέχρι|πριν|μόλις|αφού|χωρίς|chỉ|cho\s+đến\s+khi|"
    r"trước\s+khi|ngay\s+khi|sau\s+khi|hanya|sampai|sebelum|setelah|selepas|tanpa|فقط|حتى|قبل|بمجرد|بعد|"
    r"بدون|تا|به\s+محض|רק|עד\s+ש|לפני|ברגע\s+ש|אחרי|בלי|ללא|ही|तक|पहले|बाद|बिना|তবেই|পর্যন্ত|আগে|পরে|ছাড়া|"
    r"mpaka|hadi|kabla|baada|bila|només|fins\s+que|abans|sense)(?!\w)"
    r"|rồi\s+(?:mình|tôi|em|anh|chị)\s+mới|เท่านั้น|จนกว่า|หลังจาก|ทันทีที่|てから|次第|までは|才|之后|以后|等你|只有|"
    r"你[^。！？\n]{0,12}再|때까지|한\s*후에|(?<=\w)(?:ınca|ince|unca|ünce)(?!\w)",
    regex.IGNORECASE,
)
_WHEN = regex.compile(
    r"(?<!\w)(?:when|cuando|quand|wenn|quando|когда|коли|kiedy|když|wanneer|när|når|kun|amikor|când|"
    r"khi|bila|ketika|όταν|quan)(?!\w)|ถ้า|たら|(?<=\w)(?:시면)|(?<!\w)uki",
    regex.IGNORECASE,
)
_ANSWERED = regex.compile(
    r"(?<!\w)(?:yes|ok|okay|oké|okej|agree\w*|confirm\w*|approv\w*|consent\w*|answer\w*|repl\w*|respond\w*|nod|"
    r"go-ahead|say\s+(?:so|the\s+word)|sí|acuerdo|aprueb\w*|aprob\w*|respuesta|visto\s+bueno|oui|accord|valid\w*|"
    r"approuv\w*|répon\w*|feu\s+vert|aval|ja|einverstanden|zustimm\w*|bestätig\w*|freigabe|freigibst|antwort\w*|sim|"
    r"concord\w*|aprov\w*|resposta|sì|d['’]accordo|conferm\w*|rispond\w*|risposta|via\s+libera|да|согла\w+|"
    r"подтверд\w+|одобр\w+|ответ\w*|так|згод\w*|погод\w+|підтверд\w+|відпов\w+|tak|zgod\w*|zgadzasz|"
    r"potwierdz\w*|zatwierdz\w*|odpowie\w*|ano|souhlas\w*|potvrd\w*|schválí\w*|odpov\w*|akkoord|bevestig\w*|"
    r"goedkeur\w*|antwoord\w*|godkän\w*|bekräft\w*|svar\w*|godkend\w*|godkjen\w*|bekræft\w*|bekreft\w*|kyllä|"
    r"hyväks\w*|vahvist\w*|vastaa\w*|vastaus\w*|igen|jóváhagy\w*|egyetért\w*|beleegyez\w*|megerősít\w*|"
    r"válaszol\w*|de\s+acord|răspun\w*|evet|onay\w*|kabul|cevap\w*|yanıt\w*|ναι|συμφων\w*|επιβεβαι\w*|απαντ\w*|"
    r"đồng\s+ý|xác\s+nhận|trả\s+lời|setuju|konfirmasi|sahkan|jawab\w*|balas\w*|izin|موافق\w*|تأكيد\w*|تؤكد|"
    r"نعم|تأیید|تایید|بله|جواب\w*|اجازه|כן|אישור|שתאשר|תאשר|שתסכים|תסכים|הסכמה|תשובה|שתענה|हाँ|हां|सहमत|पुष्टि|"
    r"मंज़ूरी|मंजूरी|जवाब|अनुमति|হ্যাঁ|রাজি|সম্মত|অনুমতি|উত্তর|ndiyo|jibu|d['’]acord|respon\w*)(?!\w)"
    r"|ยืนยัน|ตกลง|อนุญาต|โอเค|返事|確認|承認|許可|了解|同意|返信|确认|许可|点头|答复|回复|批准|답|확인|동의|허락|승인|"
    r"kubali|thibitisha|ruhusu",
    regex.IGNORECASE,
)


def _put_off(rest: str) -> bool:
    """Whether a statement makes the writer's step wait on the reader: a word that puts it off
    (:data:`_WAITS`) or a condition, and the reader's answer named in it (:data:`_ANSWERED`):
    "only", "without" or "if" alone speak of something else ("N'hésite pas si ...", "Nur zur
    Info: ...")."""
    waits = _WAITS.search(rest) is not None or _CONDITION.search(rest) is not None or _WHEN.search(rest) is not None
    return waits and _ANSWERED.search(rest) is not None


def _asked_then_told(line: str) -> str | None:
    """The question of a word or two that opens a line, where the rest of the line is a statement
    that puts the step off to the reader's word and reports nothing done ("Boleh? Saya simpan
    selepas awak setuju.", "Можна? Без твоєї згоди не зберігаю.", "ঠিক আছে? আপনি রাজি হলে তবেই
    সেভ করব।"): the statement says when the step comes, the question asks leave for it, and the
    line is judged by the question. A statement that tells the step done ("Sound good? I've saved
    it.") or turns to something else ("OK? Let me know if anything changes.") leaves the question
    a check-in on what was done."""
    q = _short_question_then_told(line)
    if q is None or not _put_off(q[1]):
        return None
    question, rest = q
    if not _BARE.search(_bare_text(question)) and not _bare_shape(question, 2):
        return None
    return None if _tells_done(rest) else question


def _opens_with_check(line: str) -> bool:
    """Whether ``line`` opens with a question of a word or two and goes on with a statement
    that puts nothing off to the reader's answer ("¿Vale? Si cambia algo, me avisas.", "Ça te va ?
    N'hésite pas si ..."): under a lead that reports the block made, the question checks on what
    was done, as it does standing alone."""
    q = _short_question_then_told(line)
    return q is not None and not _put_off(q[1])


def _asks_back_then_more(line: str) -> bool:
    """Whether ``line`` opens with a short question that asks leave for the writer's step on the
    block itself ("Lo eseguo?", "Save it?") and goes on with a statement that tells nothing done
    ("Lo eseguo? Fammi sapere se il tasso è giusto prima che parta."): the rest says what the
    reader should check first, and the block waits on the answer as under the question alone."""
    q = _short_question_then_told(line)
    if q is None or _tells_done(q[1]):
        return False
    if _STEP_IT_ASKED.match(q[0]) is not None:
        return True
    mine = _asks_my_step(q[0])
    if mine is not None and mine[1]:
        return True
    # (a leave question of the bare list that names the step, "Quer que eu execute?", "可以帮你存吗？";
    # consent alone, "OK? Let me know if anything changes.", checks in on what was done)
    return _BARE.search(_bare_text(q[0])) is not None and _STEP_VERB.search(q[0]) is not None


# The verbs of the steps a block takes, as a leave question names them
_STEP_VERB = regex.compile(
    r"(?<!\w)(?:run|save|send|apply|store|execute|exécute|lance|enregistre|envoie|ejecut\w*|guard\w*|envío|"
    r"execut\w*|rode|salve|envie|faça|grave|esegu\w*|salv\w*|invi\w*|speicher\w*|ausführ\w*|schick\w*|"
    r"сохран\w*|выполн\w*|запуст\w*|отправ\w*)(?!\w)|存|保存|记|执行|运行|実行|検索|저장|실행|검색",
    regex.IGNORECASE,
)


# The English step asked by its bare verb on the block ("Run it?", "Shall I save this now?")
_STEP_IT_ASKED = regex.compile(
    r"\W{0,3}(?:(?:shall|should)\s+I\s+)?(?:run|save|send|apply|add|store|execute|keep|log|make)\s+(?:it|this|that)"
    r"(?:\s+now)?\s*\?$",
    regex.IGNORECASE,
)


def _short_question_then_told(line: str) -> tuple[str, str] | None:
    """A question of a word or two that opens ``line``, and the statement that follows it on the
    line (stripped; no question of its own)."""
    q = _question_then(line)
    if q is None or not _short_question(q[0]):
        return None
    rest = q[1].strip()
    return (q[0], rest) if rest and _ASK_MARK(rest) is None else None


def _question_then(line: str) -> tuple[str, str] | None:
    """A line's first question and what follows it, where it opens the line's first sentence."""
    if _ASK_MARK(line) is None:
        return None
    m = _FIRST_ASK.search(line)
    if m is None or m.end() >= len(line) or _SENTENCE_END.search(line, 0, m.start()) is not None:
        return None
    return line[: m.start() + 1], line[m.end() :]


def _into_next(lines: list[str], leads_on: bool, after: str) -> bool:
    """Whether the first line after a block ends with a colon and leads into the next block (see
    :func:`shown_after`): a block's marker, or the fence of one given back as code (set aside by
    its own words), opens the line after it, also past a blank line ("E aqui vai uma versão do
    convite, não mandei nada:", a blank line, then the draft's block)."""
    if not lines or not _ends_in_colon(lines[0][:LINE_CHARS]):
        return False
    if len(lines) == 1 and leads_on:
        return True
    nxt = (lines[1] if len(lines) > 1 else after[after.find(lines[0]) + len(lines[0]) :]).lstrip()
    return CANDIDATE.match(nxt) is not None or nxt.startswith("```")


def _ends_in_colon(line: str) -> bool:
    return line.rstrip(" \t*_").endswith((":", "："))


def _after_lines(after: str) -> list[str]:
    """The lines after a block that can address it: the first non-blank one, and those that
    follow it in its paragraph. A line past a blank one after that begins something else (a
    sign-off, a question about another matter) and says nothing of the block."""
    lines: list[str] = []
    for line in after.split("\n", 8)[:8]:
        if line.strip():
            lines.append(line)
            if len(lines) == AFTER_LINES:
                break
        elif lines:
            break
    return lines


def _after_kind(line: str, gated: frozenset[str] | None = None) -> ProblemKind | None:
    """The kind of the first row of :data:`AFTER` that ``line`` holds; ``gated``: the groups of
    :data:`_LINE_GATES` it holds, if known."""
    if gated is None:
        gated = _LINE_GATES.held(line.lower())
    kinds = [k for k in _KINDS_AFTER if k in gated]
    if not kinds:
        return None
    low = line.lower()
    return _AFTER_TABLE.first(line, low if low.isascii() else fold(line), kinds)


# A list's introduction that offers its items as alternatives, one of which is to be chosen
# ("There are two options:", "Deux possibilités :"): a count and a word for options. Counted
# changes, entries or places ("Two changes:") are steps, each performed.
ALTERNATIVES_INTRO = regex.compile(
    r"\b(?:two|three|four|several|a\s+few|\d)\s+(?:options|alternatives|choices|possibilities|variants|ways)\b|"
    # (ways to do it, as the options below: "de deux façons", "auf zwei Wegen", "in due modi")
    r"\b(?:dos|tres|varias)\s+(?:formas|maneras)\b|\b(?:deux|trois|plusieurs)\s+(?:façons|manières)\b|"
    r"\b(?:zwei|drei|mehrere)\s+(?:wegen?|arten)\b|\b(?:duas|três|várias)\s+(?:formas|maneiras)\b|"
    r"\b(?:due|tre|diversi)\s+modi\b|(?:два|три|несколько)\s+способ\w*|"
    r"\bone\s+of\s+(?:these|the\s+following|two|three)\b|\b(?:choose|pick)\s+(?:one|between)\b|"
    # the choice left to the reader ("Depending on what you want:", "Je nachdem, was du willst:")
    r"\bdepending\s+on\s+(?:what|which|whether|how)\b|\bdepends\s+(?:on\s+)?(?:what|which|whether|how)\b|"
    # versions of one thing offered ("two versions", "zwei Fassungen", "dua versi")
    r"\b(?:two|three|both|several|\d)\s+versions\b|\b(?:zwei|drei|beide|mehrere)\s+(?:fassungen|versionen)\b|"
    r"\b(?:dos|tres|varias)\s+versiones\b|\b(?:deux|trois|plusieurs)\s+versions\b|\b(?:due|tre)\s+versioni\b|"
    r"\b(?:duas|três)\s+versões\b|\b(?:dua|tiga|beberapa)\s+versi\b|\b(?:twee|drie)\s+versies\b|"
    r"(?:две|три)\s+верси\w*|\b(?:según|dependiendo\s+de)\s+(?:lo\s+que|qué|si)\b|"
    r"\bselon\s+ce\s+que\b|\bsuivant\s+ce\s+que\b|\bje\s+nachdem\b|\bdependendo\s+do\s+que\b|"
    r"\ba\s+seconda\s+di\s+(?:cosa|quello)\b|в\s+зависимости\s+от\s+того|залежно\s+від\s+того|"
    r"\bafhankelijk\s+van\s+wat\b|\bberoende\s+på\s+vad\b|\bafhængigt\s+af\s+hvad\b|\bavhengig\s+av\s+hva\b|"
    r"看你(?:想|要)|取决于你|ご希望に応じて|원하시는\s*(?:것|대로)에\s*따라|"
    r"\b(?:dos|tres|varias)\s+(?:opciones|alternativas|posibilidades)\b|"
    r"\b(?:deux|trois|plusieurs)\s+(?:options|possibilités|solutions|choix|variantes)\b|\bau\s+choix\b|"
    r"\b(?:zwei|drei|mehrere)\s+(?:optionen|möglichkeiten|varianten|alternativen)\b|\bzur\s+auswahl\b|"
    r"\b(?:duas|três|várias)\s+(?:opções|alternativas|possibilidades)\b|"
    r"\b(?:due|tre|diverse|alcune)\s+(?:opzioni|alternative|possibilità|soluzioni)\b|"
    r"(?:два|две|три|несколько)\s+(?:вариант\w*|опци\w*)|(?:два|дві|три|кілька)\s+(?:варіант\w*|опці\w*)|"
    r"(?:两|二|三|几)(?:种|个)(?:方案|选择|选项|办法)|(?:二つ|2つ|三つ|3つ|いくつか)の(?:選択肢|案|やり方|パターン)|(?:2|3|２|３|二|三|いくつか)通り|"
    r"\b(?:twee|drie|een\s+paar)\s+(?:opties|mogelijkheden|varianten)\b|"
    r"\b(?:två|tre|flera)\s+(?:alternativ|möjligheter)\b|\b(?:to|tre|flere)\s+(?:muligheder|muligheter|valg)\b|"
    r"\b(?:dwie|dwa|trzy|kilka)\s+(?:opcje|możliwości|warianty)\b|\b(?:dvě|dva|tři|několik)\s+(?:možnosti|varianty)\b|"
    r"\b(?:iki|üç|birkaç)\s+(?:seçenek|alternatif)|\b(?:dua|tiga|beberapa)\s+(?:pilihan|opsi)\b|"
    r"\b(?:hai|ba|vài)\s+(?:lựa\s+chọn|phương\s+án)|(?:두|세|몇)\s*가지\s*(?:선택지|옵션|안|중)|"
    r"(?:خياران|خيارين|عدة\s+خيارات)|(?:دو|سه|چند)\s+(?:گزینه|راه[\u200c ]?حل)|(?:שתי|שלוש|כמה)\s+אפשרויות|"
    r"(?:दो|तीन|कुछ)\s+विकल्प|(?:দুটি|দুটো|তিনটি)\s+বিকল্প|(?:สอง|สาม)\s*(?:ทางเลือก|แบบ)|^\W{0,3}เลือก|แบบไหน|(?:δύο|τρεις)\s+επιλογές|"
    r"\b(?:kaksi|kolme)\s+vaihtoehtoa\b|\b(?:két|három)\s+lehetőség|\b(?:două|trei)\s+(?:opțiuni|variante)\b|"
    r"\b(?:dues|tres)\s+(?:opcions|possibilitats)\b|\b(?:chaguo|njia)\s+(?:mbili|tatu)\b",
    regex.IGNORECASE,
)
ALTERNATIVE = "it is one item of a list the line above introduces as alternatives"
# A flag (two regional indicator letters), and the end of a label line: a colon or an arrow
_FLAG = r"[\U0001F1E6-\U0001F1FF]{2}"
_LABEL_END = r"[ \t*_]*(?:[:：]|→|->|=>)[ \t*_]*$"
# (or a flag alone, naming a language or a country as a word would: "🇧🇷:" / "🇬🇧:")
_SHORT_LABEL = regex.compile(r"[\W_]{0,3}(?:[^\W\d_][\w'’-]*(?:[ \t]+[\w'’-]+){0,2}|" + _FLAG + ")" + _LABEL_END)
_FLAG_LABEL = regex.compile(r"[\W_]{0,3}" + _FLAG + _LABEL_END)


def flag_label(line: str) -> bool:
    """Whether ``line`` is a flag alone as a label ("🇧🇷:"): it names a language or a country,
    but no word of it can be looked for in the text below it."""
    return _FLAG_LABEL.match(line.strip()) is not None


def short_label(line: str) -> bool:
    """Whether ``line`` is a label of a word to three on its own, or a flag, ending in a colon or
    an arrow ("Förmlich:", "Short version →", "🇧🇷:")."""
    return _SHORT_LABEL.match(line.strip()) is not None


# A label that names a version by its length ("Kurz:", "Korte versie:", "짧게:" / "Ausführlich:",
# "Lange versie:", "길게:"): the word alone, or with a word for "version"; a word it begins
# ("Short-term goal:", "Long trip:") names a thing, no version.
_VERSION = (
    # (apart, hyphenated or in one word: "Short version:", "Kurz-Version:", "Kurzfassung:", "Langversie:")
    r"(?:[ \t-]*(?:version|versie|fassung|variante?|versión|versione|versão|wersja|verze|версия|версія|versio|"
    r"változat|versiune|sürüm|versi|phiên\s+bản)|[ \t]*(?:버전|版|バージョン))?"
)
_LABEL_TAIL = _VERSION + _LABEL_END
_BRIEF_LABEL = regex.compile(
    r"[\W_]{0,3}(?:short|shorter|brief|kurz|kürzer|knapp|kort|korte|kortere|kortare|courte?|breve|cort[oa]|krótk[aie]|krátk[áý]|коротк(?:ая|ий|о)|"
    r"кратк(?:ая|ий|о)|lyhyt|rövid|scurt[ăa]?|kısa|singkat|pendek|ngắn(?:\s+gọn)?|짧게|짧은|簡潔|短い|简短|简洁|"
    r"مختصر|קצר|संक्षिप्त|สั้น(?:ๆ)?)" + _LABEL_TAIL,
    regex.IGNORECASE,
)
_FULL_LABEL = regex.compile(
    r"[\W_]{0,3}(?:long|longer|detailed|full|ausführlich|lang|lange|länger|langt|lengre|længere|lång|långt|längre|longue|détaillée?|larg[oa]|detallad[oa]|"
    r"lung[oa]|dettagliat[oa]|longa|detalhad[oa]|długa|długi|szczegółow[aey]|dlouh[áý]|podrobn[áý]|подробн(?:ая|ый|о)|"
    r"длинн(?:ая|ый)|pitkä|hosszú|részletes|lung[ăa]|uzun|detaylı|panjang|lengkap|dài|chi\s+tiết|길게|긴|자세히|"
    r"詳細|詳しく|长版|详细|مفصل|ארוך|विस्तृत|ยาว|ละเอียด)" + _LABEL_TAIL,
    regex.IGNORECASE,
)


def length_labels(first: str, second: str) -> int | None:
    """Which of two labels names the brief version, where one names it and the other the long
    one ("Kurz:" / "Ausführlich:" gives 0); None where they do not name versions by length."""
    labels = (first, second)
    for brief, full in ((0, 1), (1, 0)):
        if _BRIEF_LABEL.match(labels[brief]) is not None and _FULL_LABEL.match(labels[full]) is not None:
            return brief
    return None


def own_labels(first: str, second: str) -> bool:
    """Whether two lines, each directly above a block of its own, are two different short
    labels and nothing more ("Formal:" / "Casual:", "Lyhyt versio:" / "Pitkä versio:"), neither
    setting its block after the other ("Then:") nor numbering it ("Flat 4A:", "Step 2:")."""
    a, b = first.rstrip(" \t*_"), second.rstrip(" \t*_")
    if not a.endswith(_LABEL_ENDS) or not b.endswith(_LABEL_ENDS):
        return False
    a, b = a.strip(), b.strip()
    return (
        a.lower() != b.lower()
        and short_label(a)
        and short_label(b)
        and CONTINUATION.match(a) is None
        and CONTINUATION.match(b) is None
        and _DIGIT.search(a) is None
        and _DIGIT.search(b) is None
        and _ORDINAL.search(a) is None
        and _ORDINAL.search(b) is None
    )


_DIGIT = regex.compile(r"\d")
# An ordinal in a label numbers its block as a digit does ("First job:" / "Second job:", "งานแรก:"):
# the blocks are steps in order, each performed, not versions of one
_ORDINAL = regex.compile(
    r"(?<!\w)(?:first|second|third|fourth|last|erste[rsn]?|zweite[rsn]?|dritte[rsn]?|letzte[rsn]?|premier|première|"
    r"deuxième|second[e]?|troisième|dernier|dernière|primer[oa]?|segund[oa]|tercer[oa]?|últim[oa]|primeir[oa]|"
    r"terceir[oa]|prim[oa]|second[oa]|terz[oa]|ultim[oa]|перв\w+|втор\w+|трет\w+|последн\w+|eerste|tweede|"
    r"derde|laatste|första|andra|tredje|sista|første|anden|andet|andre|tredje|sidste|siste|pierwsz\w+|drug[iaie]+|"
    r"trzec\w+|ostatni\w*|první|druh[ýá]|třetí|ensimmäinen|toinen|kolmas|birinci|ikinci|üçüncü|pertama|kedua|"
    r"ketiga|thứ\s+(?:nhất|hai|ba)|πρώτ\w+|δεύτερ\w+|τρίτ\w+|पहला|पहली|दूसरा|दूसरी|तीसरा|तीसरी)(?!\w)|"
    r"第[一二三四1-4]|[一二三]つ目|첫\s*(?:째|번)|둘째|두\s*번째|셋째|แรก|ที่\s*(?:หนึ่ง|สอง|สาม)",
    regex.IGNORECASE,
)
_LABEL_ENDS = (":", "：", "→", "->", "=>")
# How a sentence ends, in any script that marks it (a message, not a search's few words)
_SENTENCE_CLOSE = regex.compile(r"(?:[.!?。！？…।؟]|\p{So})[\"'”’»)\]]*\s*$")


def reads_as_sentence(text: str) -> bool:
    """Whether ``text`` ends as a sentence does (with a full stop, an exclamation or a question
    mark, or an emoji; Thai, which writes no full stop, with a polite particle: "... ครับ")."""
    tail = text[-LINE_CHARS:]
    return _SENTENCE_CLOSE.search(tail) is not None or (
        tail.endswith(_THAI_CLOSES) and _POLITE.search(tail.rstrip()) is not None
    )


def list_intro(recent: str) -> str:
    """From the prose just before a block whose line before is a list item: the non-blank line
    above the list's items (its introduction), "" if there is none."""
    lines = recent.rsplit("\n", 12)[:-1]  # the last one is the block's own line so far
    fenced = False  # inside a code block an earlier item holds (a block shown as code, say)
    for line in reversed(lines):
        line = line.rstrip("\r")
        if line.lstrip(" \t").startswith(("```", "~~~")):
            fenced = not fenced
        elif line.strip() and not fenced and not LIST_ITEM.match(line):
            return line[-LINE_CHARS:]
    return ""


def heading_is_example(line: str) -> bool | None:
    """For a heading line, whether it introduces examples; None when the line is no heading."""
    if not HEADING.match(line):
        return None
    return HEADING_EXAMPLE.search(line) is not None


def surroundings(recent: str) -> tuple[str, bool, bool]:
    """From the prose just before a block (``recent``, ending with the block's own line so
    far): the non-blank line directly before that line, whether blank lines stand between,
    and whether that line is a heading (ATX, or a setext underline with its text above)."""
    end = recent.rfind("\n")
    if end < 0:
        return "", False, False
    # The lines are read from the last one back, in place: the recent prose is not split whole
    # for the one or two lines that decide.
    gap = False
    while True:
        start = recent.rfind("\n", 0, end) + 1
        line = recent[start:end].rstrip("\r")
        if not line.strip():
            gap = True
        elif gap or not _THOUGHT.match(line):  # ReAct's thought belongs to its action
            heading = bool(HEADING.match(line))
            if not heading and start > 0 and SETEXT_UNDERLINE.match(line):
                above = recent[recent.rfind("\n", 0, start - 1) + 1 : start - 1]
                heading = bool(above.strip()) and not LIST_ITEM.match(above) and not TABLE_ROW.match(above)
            return line[-LINE_CHARS:], gap, heading
        if start == 0:
            return "", gap, False
        end = start - 1
