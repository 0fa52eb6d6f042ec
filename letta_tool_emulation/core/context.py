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

import re
from dataclasses import dataclass

import regex

from .literals import Words, any_of, fold
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
# (1), a), (a), →, ->, =>, "Option A:" and its translations.
_ITEM = r"[ \t]{0,3}(?:[-*+•·▪►→⇒➔➜]|->|=>|\d{1,3}[.)、]|\(\d{1,3}\)|[a-zA-Z][)]|\([a-zA-Z]\)|[①-⑩])(?:[ \t]|$)"
_OPTION = (
    r"[ \t]{0,3}[*_]{0,2}(?:option|choice|alternative|variant|opci[oó]n|opção|opzione|variante|вариант|"
    r"选项|方案|オプション|案)[ \t]*(?:[a-zA-Z0-9]{1,2}|[一二三四ABC])\b"
)
LIST_ITEM = regex.compile(_ITEM)
ITEM_OR_OPTION = regex.compile(f"(?:{_ITEM})|(?i:{_OPTION})")
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
# A speaker's name in a recited transcript ("**Me:**", "assistant:").
_SPEAKER = (
    r"\W{0,4}(?:me|assistant|agent|bot|io|moi|ich|yo|eu|я|我|私|アシスタント|助手|ai|model|"
    r"assistente|asistente|assistant\w*|ассистент)\W{0,4}[:：]\W{0,4}"
)
SPEAKER = regex.compile(_SPEAKER + "$", regex.IGNORECASE)
QUOTE_ONLY = regex.compile(r"[ \t]*[\"“”„«»'‘’`]+[ \t]*$")
# A sentence ends at . ! ? after a word of three letters or more (not "e.g." or "z. B."), or at
# the full-width marks.
_SENTENCE_END = regex.compile(r"(?:(?<=\w{3})|(?<=[)\]\"'”’]))[.!?]+[ \t]+|[。！？]")
CONTINUATION = regex.compile(
    r"[ \t]*(?:(?:and\s+)?then|and|followed\s+by|after\s+that|next|y\s+(?:luego|después)|luego|puis|et\s+puis|"
    r"ensuite|dann|und\s+dann|danach|e\s+depois|depois|e\s+poi|poi|потом|затем|а\s+потом|然后|接着|その後|次に)"
    r"[ \t,]*[:：][ \t]*$",
    regex.IGNORECASE,
)
_THOUGHT = regex.compile(r"[ \t]*(?:Thought|Pensamiento|Pensée|Gedanke|Pensamento|Pensiero|Мысль|思考)[ \t]*[:：]")
_ELEMENT = regex.compile(r"<(/?)(details|pre|code)\b[^>\n]{0,200}>", regex.IGNORECASE)


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
_ENDS = r"[^\n]*[:：][ \t*_]*$"  # a line that ends with a colon

# For each kind, per language: what presents the block that follows as something shown. A row
# is a pattern matched (ignoring case) against the line directly before the block.
BEFORE: dict[ProblemKind, dict[str, str]] = {
    "example": {
        "en": r"\b(?:for\s+(?:example|instance)|e\.\s?g\.?|examples?|samples?|for\s+reference|like\s+(?:this|that|so)|"
        r"as\s+follows|looks?\s+like|would\s+look|(?:would\s+be|is|are)\s+written(?:\s+as)?|written\s+as|"
        r"(?:the|call|tool)\s+format(?:\s+is)?|format\s+is|syntax(?:\s+is)?|something\s+like|template|"
        r"would\s+be|illustration|like|with|using|via|as|(?:a\s+)?call\s+like)"
        + _COLON
        + r"|^\W{0,4}(?:an?\s+)?(?:examples?|samples?|illustration|demo)\b"
        + _ENDS
        + r"|\b(?:here['’]?s|here\s+is|this\s+is)\s+(?:an?\s+)?(?:examples?|samples?|illustration)\b"
        + r"|\blike\s+(?:this|so)\b"
        + _ENDS
        + r"|\bthe\s+tools\s+I\s+(?:have|can\s+use)\b|\bthe\s+shape\s+of\b"
        + r"|\btypical\s+arguments\b|\beach\s+(?:call|tool)\b"
        + _ENDS,
        "es": r"\b(?:por\s+ejemplo|p\.\s?ej\.?|ejemplos?|el\s+formato\s+es|formato|se\s+ver[ií]a\s+(?:así|as[ií])|"
        r"(?:quedar[ií]a|ser[ií]a)\s+así|así|de\s+esta\s+forma|como\s+este|como\s+esto)" + _COLON,
        "fr": r"\b(?:par\s+exemple|exemples?|le\s+format\s+est|format|comme\s+ceci|comme\s+ça|comme\s+cela|"
        r"ainsi|le\s+suivant|ressemble(?:rait)?\s+à\s+(?:ceci|ça|cela))" + _COLON + r"|\bvoici\s+à\s+quoi\s+ressemble",
        "de": r"\b(?:zum\s+beispiel|z\.\s?b\.?|beispiele?|das\s+format\s+ist|format|so|folgendermaßen|wie\s+folgt|"
        r"sieht\s+(?:so|folgendermaßen)\s+aus|etwa\s+so|aus)" + _COLON + r"|\bso\s+sieht\b",
        "pt": r"\b(?:por\s+exemplo|exemplos?|o\s+formato\s+é|formato|fica\s+assim|ficaria\s+assim|assim|"
        r"desta\s+forma)" + _COLON + r"|^\W{0,4}um\s+exemplo\b" + _ENDS,
        "it": r"\b(?:ad\s+esempio|per\s+esempio|esempi[o]?|il\s+formato\s+è(?:\s+questo)?|formato|così|"
        r"in\s+questo\s+modo|si\s+scrive\s+così)" + _COLON,
        "ru": r"(?:например|пример\w*|формат\w*(?:\s+такой)?|выглядит\s+так|так|вот\s+так)"
        + _COLON
        + r"|^\W{0,4}пример\w*\b"
        + _ENDS
        + r"|вот\s+так\s+выглядит",
        "zh": r"(?:例如|比如|示例|例子|举例|格式如下|格式为|格式是|示例如下|这样)" + _COLON,
        "ja": r"(?:例えば|たとえば|例|形式は次のとおりです|次のとおりです|次のように|このように書きます|このように|"
        r"こんな感じ)" + _COLON,
        "other": r"(?:bijvoorbeeld|na\s+przykład|örneğin|예를\s+들어|예시)"
        + _COLON
        + r"|\b(?:examples?|ejemplos?|exemples?|beispiele?|exemplos?|esempi[o]?|пример\w*|format\w*|формат\w*)\b"
        + _ENDS
        + r"|(?:示例|例子|格式|形式|例)[^\n]{0,30}[:：][ \t]*$",
    },
    "quoted": {
        "en": r"\b(?:earlier|previously|before|last\s+time|yesterday)\b[^\n]{0,80}\b(?:I|we)\s+(?:ran|called|did|"
        r"executed|sent|wrote|made)\b|\b(?:I|we)\s+(?:ran|called|executed)"
        + _COLON
        + r"|(?:\bwhat\s+I\s+did\b|\byou\s+(?:sent|pasted|wrote|shared|gave)\b|\bwhat\s+you\s+(?:sent|pasted|wrote)\b|"
        r"\byour\s+(?:last\s+)?message\b|\bthe\s+other\s+agent\b)" + _ENDS + r"|"
        r"\b(?:my|the)\s+(?:instructions|system\s+prompt)\b|\beverything\s+I\s+can\s+call\b|"
        r"\b(?:available|following)\s+(?:\w+\s+)?tools\b|\bmy\s+(?:native\s+)?format\b|\bverbatim\b|"
        r"\b(?:quoting|recit\w+)\b|"
        r"^" + _SPEAKER + "$",
        "es": r"\b(?:mis\s+herramientas|la\s+forma\s+de\s+cada|me\s+(?:enviaste|mandaste|pasaste)|(?:antes|ayer|la\s+última\s+vez)\b[^\n]{0,60}\b"
        r"(?:ejecuté|llamé|hice)|tu\s+(?:último\s+)?mensaje)\b",
        "fr": r"\b(?:mes\s+outils|tu\s+m['’]as\s+(?:envoyé|collé)|vous\s+m['’]avez\s+(?:envoyé|collé)|plus\s+tôt[^\n]{0,40}"
        r"j['’]ai\s+(?:lancé|exécuté|appelé)|ton\s+(?:dernier\s+)?message|votre\s+(?:dernier\s+)?message)",
        "de": r"\b(?:meine\s+(?:werkzeuge|tools)|hast\s+du\s+mir\s+geschickt|du\s+hast\s+mir\s+geschickt|haben\s+sie\s+mir\s+geschickt|"
        r"(?:vorhin|vorher|früher|gestern)\b[^\n]{0,60}\bhabe\s+ich|deine[rn]?\s+(?:letzten\s+)?nachricht)\b",
        "pt": r"\b(?:minhas\s+ferramentas|(?:você\s+)?me\s+(?:enviou|mandou)|(?:antes|ontem)\b[^\n]{0,60}\b(?:executei|chamei)|"
        r"sua\s+(?:última\s+)?mensagem)\b",
        "it": r"\b(?:i\s+miei\s+strumenti|mi\s+hai\s+(?:mandato|inviato|incollato)|(?:prima|ieri)\b[^\n]{0,60}\bho\s+(?:eseguito|"
        r"chiamato|lanciato)|tuo\s+(?:ultimo\s+)?messaggio)\b",
        "ru": r"(?:мои\s+инструменты|вы\s+(?:прислали|отправили)|ты\s+(?:прислал|отправил)|(?:ранее|раньше|вчера)[^\n]{0,60}я\s+"
        r"(?:запустил|вызвал|выполнил)|ваше\w*\s+сообщени)",
        "zh": r"(?:我的工具|你发给我|你发送|你发来|你贴|之前我(?:运行|调用|执行)|你的(?:上一条)?消息)",
        "ja": r"(?:使えるツール|ツール一覧|送ってくれた|送られてきた|先ほど(?:実行|呼び出)|あなたのメッセージ)",
    },
    "proposed": {
        "en": r"\b(?:I|we)['’]d\b|\b(?:I|we)\s+would\b|\bif\s+you\s+(?:agree|want|like|confirm|approve|say\s+so)\b|"
        r"\buntil\s+you\s+(?:confirm|say|approve|give)\b|\bpending\s+(?:your\s+)?(?:approval|confirmation)\b|"
        r"\bdraft(?:ed)?\b|\bnot\s+(?:sent|saved|applied|run|executed)(?:\s+yet)?\b|\bwon['’]t\s+(?:apply|send|save|"
        r"run)\b|\bshall\s+I\b|\bwant\s+me\s+to\b|\bnext\s+step\s+would\b|"
        r"^\W{0,4}(?:if|once|depending\s+on|in\s+case|should\s+(?:it|that|the))\b"
        + _ENDS
        + r"|\b(?:two|three|several|a\s+few|\d)\s+(?:ways|options|alternatives|choices|places)\b"
        + _ENDS
        + r"|\bone\s+of\s+(?:two|three|these|the\s+following)\b"
        + _ENDS,
        "es": r"\b(?:hasta\s+que\s+(?:me\s+)?confirmes|si\s+(?:me\s+)?confirmas|si\s+estás\s+de\s+acuerdo|borrador|"
        r"lo\s+dejo\s+preparado|no\s+(?:enviado|guardado)|si\s+(?:eso|esto|la\s+búsqueda)\s+no)\b|"
        r"^\W{0,4}(?:si|cuando|una\s+vez|según)\b" + _ENDS + r"|\b(?:dos|tres|varias)\s+(?:formas|opciones)\b" + _ENDS,
        "fr": r"\b(?:jusqu['’]à\s+ce\s+que\s+tu\s+confirmes|si\s+tu\s+(?:es\s+d['’]accord|confirmes)|brouillon|"
        r"pas\s+encore\s+(?:envoyé|enregistré))\b|^\W{0,4}(?:si|une\s+fois|selon)\b"
        + _ENDS
        + r"|\b(?:deux|trois|plusieurs)\s+(?:façons|options|manières)\b"
        + _ENDS,
        "de": r"\b(?:bis\s+du\s+(?:es\s+)?bestätigst|wenn\s+du\s+einverstanden|entwurf|noch\s+nicht\s+(?:gespeichert|"
        r"gesendet))\b|^\W{0,4}(?:wenn|falls|sobald|je\s+nach)\b"
        + _ENDS
        + r"|\b(?:zwei|drei|mehrere)\s+(?:wege|möglichkeiten|optionen)\b"
        + _ENDS,
        "pt": r"\b(?:até\s+(?:você\s+)?confirmar|se\s+você\s+concordar|rascunho|ainda\s+não\s+(?:enviado|salvo))\b|"
        r"^\W{0,4}(?:se|quando|assim\s+que|dependendo)\b"
        + _ENDS
        + r"|\b(?:duas|três|várias)\s+(?:formas|opções|maneiras)\b"
        + _ENDS,
        "it": r"\b(?:finché\s+non\s+confermi|se\s+sei\s+d['’]accordo|bozza|non\s+ancora\s+(?:inviato|salvato))\b|"
        r"^\W{0,4}(?:se|quando|una\s+volta|a\s+seconda)\b"
        + _ENDS
        + r"|\b(?:due|tre|diversi)\s+(?:modi|opzioni)\b"
        + _ENDS,
        "ru": r"(?:пока\s+вы\s+не\s+подтвердите|пока\s+ты\s+не\s+подтвердишь|черновик|ещё\s+не\s+(?:отправ|сохран))|"
        r"^\W{0,4}(?:если|когда|в\s+зависимости)" + _ENDS + r"|(?:два|три|несколько)\s+(?:способа|варианта)" + _ENDS,
        "zh": r"(?:草稿|确认后|等你确认|尚未(?:发送|保存)|还没(?:发送|保存)|如果|两种|几种)" + _ENDS,
        "ja": r"(?:下書き|確認(?:して|が取れ)|まだ(?:送信|保存)|もし|二つの方法|2つの方法)" + _ENDS,
    },
}

# -- words: the lines directly after ------------------------------------------------------------

_DEICTIC = r"(?:it|this|that|these|them|the\s+(?:call|update|change|block)s?)"
AFTER: dict[ProblemKind, dict[str, str]] = {
    "proposed": {  # a permission request for this block, or a condition on an earlier call's result
        "en": r"\b(?:shall|should|may|can)\s+I\s*\?|\b(?:shall|should|may|can)\s+I\s+(?:\w+\s+){0,2}?"
        + _DEICTIC
        + r"\b[^\n]*\?|\b(?:want|like)\s+me\s+to\s+(?:\w+\s+){0,2}?"
        + _DEICTIC
        + r"\b[^\n]*\?|"
        r"\bdoes\s+(?:this|that|it)\s+look\s+(?:right|good|ok|okay)\b|"
        r"\bsay\s+(?:yes|the\s+word|so)\b|\bis\s+(?:that|this|it)\s+(?:ok|okay|alright|fine|all\s+right)\b[^\n]*\?|"
        r"\bare\s+you\s+sure\b|\bwithout\s+your\s+(?:ok|okay|approval|permission|go-ahead)\b|"
        r"\bbefore\s+it\s+goes\s+out\b|\buntil\s+you\s+(?:confirm|say|give|approve)\b|"
        r"\bonly\s+(?:if|after|once|when)\b|^\W{0,3}\^|\b(?:shall|should|can|may)\s+I\s+(?:go\s+ahead|proceed)\s*\?|"
        r"\b(?:go\s+ahead|proceed)\s+(?:with\s+)?" + _DEICTIC + r"\b[^\n]*\?",
        "es": r"(?:¿\s*(?:lo|la|los|las)\s+(?:guardo|envío|aplico|ejecuto|mando)|¿\s*(?:te\s+parece\s+bien|está\s+bien|"
        r"sigo\s+adelante|quieres\s+que\s+(?:lo|la))|hasta\s+que\s+(?:me\s+)?confirmes|solo\s+si\b)",
        "fr": r"(?:je\s+l['’](?:enregistre|envoie|applique)\s*\?|tu\s+veux\s+que\s+je\b[^\n]*\?|ça\s+te\s+va\s*\?|"
        r"c['’]est\s+bon\s+pour\s+(?:toi|vous)\s*\?|je\s+peux\s+y\s+aller\s*\?|jusqu['’]à\s+ce\s+que\s+tu\s+confirmes|"
        r"seulement\s+si\b)",
        "de": r"(?:\bsoll\s+ich\s+(?:das|es|ihn|sie|die)\b[^\n]*\?|\bpasst\s+das\s*\?|\bist\s+das\s+(?:ok|okay|in\s+"
        r"ordnung)\b[^\n]*\?|\bdarf\s+ich\b[^\n]*\?|\bbis\s+du\s+(?:es\s+)?bestätigst|\bnur\s+(?:wenn|falls)\b)",
        "pt": r"(?:\bposso\s+(?:salvar|enviar|aplicar|prosseguir|seguir)\b[^\n]*\?|\bquer\s+que\s+eu\b[^\n]*\?|"
        r"\bestá\s+bom\s+assim\s*\?|\btudo\s+bem\s*\?|\baté\s+(?:você\s+)?confirmar|\bsó\s+se\b|"
        r"\bprocedo\b[^\n]*\?)",
        "it": r"(?:\bposso\s+(?:procedere|salvarl\w|inviarl\w|applicarl\w)\b[^\n]*\?|\bvuoi\s+che\s+(?:lo|la|li)\b"
        r"[^\n]*\?|\bva\s+bene\s+così\s*\?|\bfinché\s+non\s+confermi|\bsolo\s+se\b)",
        "ru": r"(?:сохранить\s*\?|отправить\s*\?|применить\s*\?|всё\s+верно\s*\?|подтвердите|можно\s+(?:сохранить|"
        r"отправить)|только\s+если|вы\s+уверены|хотите,?\s+чтобы\s+я)",
        "zh": r"(?:可以吗|要我(?:保存|发送|执行)|请确认|好吗[？?]|是否(?:保存|发送|执行)|确认后|只有在)",
        "ja": r"(?:よろしいですか|いいですか|保存しますか|送信しますか|確認してください|ご確認)",
    },
    "example": {  # a disclaimer: it was only shown, nothing ran
        "en": r"\b(?:only|just)\s+(?:an?\s+)?(?:illustration|example|sample|demo|demonstration)\b|"
        r"\bnothing\s+(?:was|has\s+been|is|got)\s+(?:actually\s+)?(?:saved|stored|changed|run|executed|sent|"
        r"searched|called)\b|\b(?:I\s+)?(?:didn['’]t|did\s+not|haven['’]t|have\s+not|wasn['’]t|was\s+not|isn['’]t|"
        r"won['’]t|will\s+not)\s+(?:actually\s+)?(?:be\s+)?(?:run|ran|execute[ds]?|store[ds]?|save[ds]?|sen[dt]|"
        r"call(?:ed)?|appl(?:y|ied))\b|\bonly\s+(?:what|how)\b[^\n]{0,60}\blooks?\s+like\b|\bthe\s+shape\s+of\b|"
        r"\bnot\s+(?:sent|saved|applied|executed|run)\s+yet\b|\bholding\s+it\b|\bnothing\s+goes\s+out\b",
        "es": r"(?:solo\s+(?:es\s+)?un\s+ejemplo|no\s+se\s+ha\s+(?:guardado|ejecutado|enviado)|no\s+(?:lo\s+)?he\s+"
        r"(?:guardado|ejecutado)|no\s+se\s+guardó\s+nada|nada\s+se\s+ha\s+guardado)",
        "fr": r"(?:juste\s+un\s+exemple|seulement\s+un\s+exemple|rien\s+n['’]a\s+été|je\s+n['’]ai\s+(?:rien|pas)\s+"
        r"(?:enregistré|exécuté|lancé|envoyé)|n['’]a\s+pas\s+été\s+(?:exécuté|enregistré))",
        "de": r"(?:nur\s+ein\s+beispiel|nichts\s+wurde|nicht\s+(?:ausgeführt|gespeichert|gesendet)|habe\s+nichts\s+"
        r"gespeichert)",
        "pt": r"(?:apenas\s+um\s+exemplo|só\s+um\s+exemplo|nada\s+foi|não\s+foi\s+(?:salvo|executado|enviado)|não\s+"
        r"(?:salvei|executei))",
        "it": r"(?:solo\s+un\s+esempio|non\s+è\s+stato\s+(?:salvato|eseguito|inviato)|non\s+ho\s+(?:salvato|eseguito)|"
        r"nulla\s+è\s+stato)",
        "ru": r"(?:только\s+пример|просто\s+пример|ничего\s+не\s+(?:сохранено|сохранил|выполнено|отправлено)|не\s+"
        r"(?:выполнял|сохранял|запускал))",
        "zh": r"(?:只是(?:一个)?(?:示例|例子)|没有(?:保存|执行|发送)|未(?:执行|保存|发送)|并未)",
        "ja": r"(?:例です|例にすぎません|実行していません|保存していません|送信していません|変更していません|示しただけ)",
    },
    "retracted": {
        "en": r"\bscratch\s+that\b|\bignore\s+(?:the|that|this|my)\s+(?:\w+\s+)?(?:call|block|one)\b|"
        r"\bdisregard\b|\bretract\b|\bcancel\s+that\b|\bdon['’]t\s+(?:run|use|execute)\s+(?:that|it|this)\b|"
        r"\bwrong\s+(?:block|call|one)\b|\bnever\s+mind\b|\b(?:use|here['’]s)\s+(?:this|the)\s+(?:one|corrected)\b",
        "es": r"(?:olvida\s+(?:eso|esa|la)|ignora\s+(?:la|esa|esta)|me\s+equivoqué|descarta|anula)",
        "fr": r"(?:oublie[sz]?\s+(?:ça|ce|cet|l['’]appel)|ignore[sz]?\s+(?:l['’]appel|ce|cet)|annule|je\s+me\s+suis\s+trompé)",
        "de": r"(?:vergiss\s+(?:das|den|die)|nehme\s+ich\s+zurück|zurückgenommen|ignorier\w*|streich\s+das|falscher\s+aufruf)",
        "pt": r"(?:esqueça\s+(?:isso|essa|a)|ignore\s+(?:a|essa|esta)|desconsidere|me\s+enganei)",
        "it": r"(?:lascia\s+perdere|ignora\s+(?:la|quella|questa)|annulla|mi\s+sono\s+sbagliat)",
        "ru": r"(?:игнорируй|забудь(?:те)?\s+(?:это|про)|отмен|я\s+ошиб)",
        "zh": r"(?:忽略|撤回|请无视|作废|弄错了)",
        "ja": r"(?:無視して|取り消|間違え)",
    },
}


def _compile(table: dict[ProblemKind, dict[str, str]]) -> list[tuple[ProblemKind, Words]]:
    # A line holds a kind's words when any language's pattern matches; each pattern's
    # alternatives are searched only where one of their literals occurs (see literals.py).
    return [(kind, Words(rows.values(), regex.IGNORECASE | regex.MULTILINE)) for kind, rows in table.items()]


_BEFORE = _compile(BEFORE)
_AFTER = _compile(AFTER)
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


def _quote(words: str) -> str:
    words = " ".join(words.split())
    return words if len(words) <= 60 else words[:57] + "..."


def shown_before(ctx: Context, *, json_only: bool = False) -> Shown | None:
    """Why the structure around the opener, or the line directly before the block, makes it
    something shown; None when it was performed. JSON with no marker around it
    (``json_only``) also continues a list item or a broken code block on the line before."""
    head = ctx.line_head
    continuing = json_only and ctx.before and not ctx.gap and not head.strip()
    if continuing and (LIST_ITEM.match(ctx.before) or "```" in ctx.before or "~~~" in ctx.before):
        return Shown("example", "it continues a list item or a code block")
    if BLOCKQUOTE.match(head):
        return Shown("quoted", "it is in a blockquote")
    if SPEAKER.match(head):
        return Shown("quoted", "it follows a speaker's name, as in a recited transcript")
    if TABLE_ROW.match(head):
        return Shown("example", "it is in a table cell")
    if ITEM_OR_OPTION.match(head):
        return Shown("example", "it is a list item or one of several alternatives")
    if not ctx.region_on_line and ctx.line_last and (ctx.line_last.isalnum() or ctx.line_last in _SENTENCE_CHARS):
        return Shown("in_sentence", "it is part of a sentence")
    if ctx.in_element:
        return Shown("example", "it is inside a <details>, <pre> or <code> element")
    if ctx.heading_above:
        return Shown("example", "a heading stands directly above it")
    if ctx.section_example:
        return Shown("example", "it is under an example heading")
    before = ctx.before
    if not before:
        return None
    if QUOTE_ONLY.match(before):
        return Shown("quoted", "it stands between quotation marks")
    if not ctx.gap and LIST_ITEM.match(before) and head and not head.strip():
        return Shown("example", "it is indented under a list item")
    if not ctx.gap and (TABLE_ROW.match(before) or BLOCKQUOTE.match(before)) and json_only:
        return Shown("example", "it continues a table or a quote")
    if ITEM_OR_OPTION.match(before) and before.rstrip(" \t*_").endswith((":", "：", ")")):
        return Shown("example", "it belongs to a list item or an alternative introduced on the line before", before)
    sentence = last_sentence(before)
    if not opens_onto_next(sentence):
        return None  # a line that ends its own sentence introduces nothing
    folded = fold(sentence)
    for kind, words in _BEFORE:
        if words.search(sentence, folded):
            return Shown(kind, _WHY_BEFORE[kind], _quote(sentence))
    return None


# A line that only names a tool, as the label of the block below it in a listing of tools:
# the name (after a list marker, heading marks or emphasis), then nothing, or a colon, a dash, a
# parenthesis (its signature) or a description after a dash.
_LISTED_NAME = regex.compile(r"[ \t]{0,3}(?:[-*+•]|\d{1,3}[.)]|#{1,6})?[ \t]*[*_`]{0,3}([A-Za-z_][\w.-]{0,63})")
_AFTER_NAME = regex.compile(r"[*_`]{0,3}[ \t]*(?:$|[:：(]|[—–]|-[ \t])")


def names_tool(line: str, tool: str) -> bool:
    """Whether ``line`` (the line directly before a block) is a label naming ``tool``, the
    block's own tool, as each entry of a listing of tools is (``**memory_insert**``,
    ``2. archival_memory_search — searches the archive:``)."""
    m = _LISTED_NAME.match(line)
    return m is not None and m.group(1) == tool and _AFTER_NAME.match(line, m.end()) is not None


def opens_onto_next(line: str) -> bool:
    """Whether ``line`` opens onto what follows it: it ends in a colon or an ellipsis, or in a
    word that needs a complement ("like", "as", "with", "así", "ainsi", ...). Only such a line
    can introduce the block after it."""
    end = line.rstrip(" \t*_")
    if end.endswith((":", "：", "...", "…")):
        return True
    m = _LAST_WORD.search(end)
    return m is not None and m.group().lower() in OPEN_ENDINGS


def last_sentence(line: str) -> str:
    """The last sentence of ``line``: only it can address what follows the line."""
    end = 0
    for m in _SENTENCE_END.finditer(line):
        if m.end() < len(line):
            end = m.end()
    return line[end:]


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
_LAST_WORD = regex.compile(r"[\w.]+$")
# Text one of which a line after a block must hold for each kind of remark to be looked for
# (lowercased); a line with none of them is ordinary prose, judged without a pattern.
_NEGATED = tuple(
    f"{neg} {verb}"
    for neg in ("n't", "n’t", "not")
    for verb in ("run", "ran", "actually", "execute", "store", "save", "sen", "call", "appl", "be ")
)
AFTER_GATES: dict[ProblemKind, tuple[str, ...]] = {
    "proposed": (
        "shall i",
        "should i",
        "may i",
        "can i",
        "want me",
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
    ),
    "example": (
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
    ),
    "retracted": (
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
    ),
}


# One pattern per kind finds any of its gate texts in a line at once, and one for all kinds
# lets a line with none of them (most prose) go at the cost of a single search.
_AFTER_GATED = [(kind, re.compile(any_of(AFTER_GATES[kind])), words) for kind, words in _AFTER]
_ANY_GATE = re.compile(any_of({g for gates in AFTER_GATES.values() for g in gates}))


def shown_after(after: str) -> Shown | None:
    """Why the lines directly after a performed-looking block make it something shown (a
    permission request, a disclaimer, a retraction, a condition on an earlier result)."""
    lines = [line for line in after.split("\n", 8)[:8] if line.strip()][:AFTER_LINES]
    for line in lines:
        line = line[:LINE_CHARS]
        low = line.lower()
        if _ANY_GATE.search(low) is None:
            continue
        folded = low if low.isascii() else fold(line)
        for kind, gate, words in _AFTER_GATED:
            if gate.search(low) is not None and words.search(line, folded):
                return Shown(kind, _WHY_AFTER[kind], _quote(line))
    return None


def heading_is_example(line: str) -> bool | None:
    """For a heading line, whether it introduces examples; None when the line is no heading."""
    if not HEADING.match(line):
        return None
    return HEADING_EXAMPLE.search(line) is not None


def surroundings(recent: str) -> tuple[str, bool, bool]:
    """From the prose just before a block (``recent``, ending with the block's own line so
    far): the non-blank line directly before that line, whether blank lines stand between,
    and whether that line is a heading (ATX, or a setext underline with its text above)."""
    nl = recent.rfind("\n")
    if nl < 0:
        return "", False, False
    lines = recent[:nl].split("\n")
    gap = False
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i].rstrip("\r")
        if not line.strip():
            gap = True
            continue
        if _THOUGHT.match(line) and not gap:  # ReAct's thought belongs to its action
            continue
        heading = bool(HEADING.match(line))
        if not heading and i > 0 and SETEXT_UNDERLINE.match(line):
            above = lines[i - 1]
            heading = bool(above.strip()) and not LIST_ITEM.match(above) and not TABLE_ROW.match(above)
        return line[-LINE_CHARS:], gap, heading
    return "", gap, False
