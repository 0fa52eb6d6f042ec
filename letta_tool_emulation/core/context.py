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

from dataclasses import dataclass

import regex

from .literals import Gates, Table, Words, fold
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
    r"[ \t]{0,3}[*_]{0,2}(?:option|choice|alternativ[e]?|variant|opci[oó]n|opção|opzione|variante|вариант|"
    r"选项|方案|オプション|案|optie|opcja|opció|opțiunea|možnost|varianta|vaihtoehto|lehetőség|seçenek|"
    r"lựa[ \t]+chọn|phương[ \t]+án|pilihan|opsi|chaguo|επιλογή|варіант|الخيار|خيار|گزینه|אפשרות|विकल्प|"
    r"বিকল্প|ตัวเลือก|옵션|방법)[ \t]*(?:[a-zA-Z0-9]{1,2}|[一二三四ABC]|[АБВабв]|[ΑΒΓαβγ]|[أبج]|[אבג])\b"
)
LIST_ITEM = regex.compile(_ITEM)
ITEM_OR_OPTION = regex.compile(f"(?:{_ITEM})|(?i:{_OPTION})")
# An alternative's label and what it does ("Option A: search the archive"): the block below it
# is that alternative, whatever the line goes on to say.
OPTION_LABEL = regex.compile(f"(?i:{_OPTION})[ \t*_]*[:：)–—-]")
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
    r"assistente|asistente|assistant\w*|ассистент|jag|ik|tôi|aku|saya|minä|ben|εγώ|asistent|asystent|avustaja|"
    r"asisten|trợ\s+lý|asistan|βοηθός|помічник|أنا|المساعد|אני|העוזר|मैं|सहायक|나|어시스턴트)\W{0,4}[:：]\W{0,4}"
)
SPEAKER = regex.compile(_SPEAKER + "$", regex.IGNORECASE)
QUOTE_ONLY = regex.compile(r"[ \t]*[\"“”„«»'‘’`]+[ \t]*$")
# A sentence ends at . ! ? after a word of three letters or more (not "e.g." or "z. B."), or at
# the full-width marks.
_SENTENCE_END = regex.compile(r"(?:(?<=\w{3})|(?<=[)\]\"'”’]))[.!?]+[ \t]+|[。！？]")
CONTINUATION = regex.compile(
    r"[ \t]*(?:(?:and\s+)?then|and|followed\s+by|after\s+that|next|y\s+(?:luego|después)|luego|puis|et\s+puis|"
    r"ensuite|dann|und\s+dann|danach|e\s+depois|depois|e\s+poi|poi|потом|затем|а\s+потом|然后|接着|その後|次に|"
    r"en\s+dan|daarna|och\s+sedan|sedan|og\s+så|derefter|deretter|a\s+pak|potom|a\s+potem|potem|потім|а\s+потім|"
    r"ja\s+sitten|sitten|aztán|majd|și\s+apoi|apoi|i\s+després|després|sonra|ardından|και\s+μετά|μετά|sau\s+đó|"
    r"lalu|kemudian|setelah\s+itu|ثم|بعد\s+ذلك|سپس|ואז|אחר\s+כך|फिर|उसके\s+बाद|তারপর|จากนั้น|그\s+다음|그다음|"
    r"kisha|halafu)"
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


def _adverb(words: str) -> str:
    """``words`` ("for example", "an example") at the start of a sentence or just before its colon."""
    return rf"^\W{{0,4}}(?:{words})(?!\w)|(?<!\w)(?:{words})" + _COLON


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
        "ru": r"(?:например|пример\w*|формат\w*(?:\s+такой)?|выглядит\s+так|(?<!правильно\s)(?<!верно\s)так|вот\s+так)"
        + _COLON
        + r"|^\W{0,4}пример\w*\b"
        + _ENDS
        + r"|вот\s+так\s+выглядит",
        "zh": r"(?:例如|比如|示例|例子|举例|格式如下|格式为|格式是|示例如下|这样)" + _COLON,
        "ja": r"(?:例えば|たとえば|例|形式は次のとおりです|次のとおりです|次のように|このように書きます|このように|"
        r"こんな感じ)" + _COLON,
        "other": r"(?:bijvoorbeeld|na\s+przykład|örneğin|예를\s+들어|예시)"
        + _COLON
        # the noun anywhere, but "par exemple" and its like only where _adverb places them: in the
        # middle of a sentence they give a list ("je note tes plats, par exemple la raclette:")
        + r"|(?<!\b(?:par|per|por|zum|for)\s)\b(?:examples?|ejemplos?|exemples?|beispiele?|exemplos?|esempi[o]?|"
        r"пример\w*|format\w*|формат\w*)\b"
        + _ENDS
        + "|"
        + _adverb(r"(?:par|per|por)\s+(?:exemple|ejemplo|esempio|exemplo)|zum\s+beispiel|for\s+example")
        + r"|(?:示例|例子|格式|形式|例)[^\n]{0,30}[:：][ \t]*$",
        # "For example" and the noun: at the start of the sentence or just before its colon, never
        # inside a list the sentence gives ("saving the dishes you like, for example pierogi:");
        # "it looks like this" and "here is an example" anywhere in it.
        "nl": _adverb(r"bijvoorbeeld|bv\.|b\.v\.|(?:een\s+)?voorbeeld(?:en)?")
        + r"|\b(?:het\s+formaat\s+is|ziet\s+er\s+(?:\w+\s+)?(?:zo|als\s+volgt|ongeveer\s+zo)\s+uit|zo\s+ziet|"
        r"hier\s+is\s+een\s+voorbeeld)\b" + _ENDS,
        "sv": _adverb(r"till\s+exempel|t\.\s?ex\.|exempelvis|(?:ett\s+)?exempel")
        + r"|\b(?:formatet\s+är|ser\s+(?:\w+\s+)?(?:ut\s+så\s+här|ut\s+ungefär\s+så\s+här|ut\s+som\s+följer)|"
        r"så\s+här\s+ser|här\s+är\s+ett\s+exempel)\b" + _ENDS,
        "da-nb": _adverb(r"for\s+eksempel|f\.\s?eks\.|eksempelvis|(?:et\s+)?eksempel")
        + r"|\b(?:formatet\s+er|ser\s+(?:\w+\s+)?(?:sådan\s+ud|således\s+ud|slik\s+ut|sånn\s+ut)|sådan\s+ser|"
        r"slik\s+ser|her\s+er\s+et\s+eksempel)\b" + _ENDS,
        "cs-pl": _adverb(r"například|např\.|příklad\w*|pro\s+představu|ukázk\w*|na\s+przykład|np\.|przykład\w*")
        + r"|\b(?:vypadá\s+(?:\w+\s+)?(?:takto|následovně)|formát\s+je|tady\s+je\s+příklad|"
        r"wygląda\s+(?:\w+\s+)?(?:tak|następująco)|format\s+jest|oto\s+przykład)\b" + _ENDS,
        "uk": _adverb(r"наприклад|приклад\w*|для\s+прикладу")
        + r"|(?:виглядає\s+(?:\w+\s+)?(?:так|ось\s+так)|формат\s+такий|ось\s+приклад)"
        + _ENDS,
        "fi-hu": _adverb(r"esimerkiksi|esim\.|esimerk\w*|például|pl\.|(?:egy\s+)?példa\w*|példá\w*")
        + r"|\b(?:näyttää\s+(?:\w+\s+)?(?:tältä|seuraavalta)|muoto\s+on|tässä\s+esimerkki|így\s+néz\s+ki|"
        r"a\s+formátum|íme\s+egy\s+példa)" + _ENDS,
        "ro-ca": _adverb(r"de\s+exemplu|de\s+ex\.|(?:un\s+)?exemplu|per\s+exemple|p\.\s?ex\.|(?:un\s+)?exemple")
        + r"|\b(?:arată\s+(?:\w+\s+)?(?:așa|astfel)|formatul\s+este|iată\s+un\s+exemplu|el\s+format\s+és|"
        r"es\s+veuria\s+així|seria\s+així|aquí\s+tens\s+un\s+exemple)" + _ENDS,
        "tr": _adverb(r"örneğin|mesela|örnek\w*")
        + r"|\b(?:şöyle\s+görün\w*|şu\s+şekilde\s+görün\w*|biçimi\s+şöyle|formatı\s+şöyle|işte\s+bir\s+örnek)"
        + _ENDS,
        "el": _adverb(r"για\s+παράδειγμα|π\.\s?χ\.|(?:ένα\s+)?παράδειγμα|παραδείγματα")
        + r"|(?:μοιάζει\s+(?:κάπως\s+)?έτσι|φαίνεται\s+έτσι|η\s+μορφή\s+είναι|ορίστε\s+ένα\s+παράδειγμα)"
        + _ENDS,
        "vi": _adverb(r"ví\s+dụ|chẳng\s+hạn|minh\s+họa|minh\s+hoạ")
        + r"|(?:trông\s+như|có\s+dạng|định\s+dạng\s+là|đây\s+là\s+(?:một\s+)?ví\s+dụ)"
        + _ENDS,
        "id-ms": _adverb(r"misalnya|contohnya|sebagai\s+contoh|contoh|misal")
        + r"|\b(?:seperti\s+(?:ini|berikut)\s+bentuknya|terlihat\s+seperti|kelihatan\s+seperti|formatnya|"
        r"bentuknya|berikut\s+contoh\w*|ini\s+contoh\w*)\b" + _ENDS,
        "ar-fa": _adverb(r"على\s+سبيل\s+المثال|مثلاً|مثلا|مثال|برای\s+مثال|به\s+عنوان\s+مثال|نمونه")
        + r"|(?:يبدو\s+(?:هكذا|كالتالي|كما\s+يلي)|هكذا\s+يبدو|الصيغة|إليك\s+مثال|این\s+شکلی|به\s+این\s+شکل|"
        r"این\s+یک\s+مثال)" + _ENDS,
        "he": _adverb(r"לדוגמה|לדוגמא|למשל|דוגמה|דוגמא")
        + r"|(?:נראה\s+כך|נראית\s+כך|נראים\s+כך|הפורמט|הנה\s+דוגמ)"
        + _ENDS,
        "hi-bn": _adverb(r"उदाहरण(?:\s+के\s+लिए)?|मिसाल\s+के\s+तौर\s+पर|উদাহরণ(?:স্বরূপ)?")
        + r"|(?:ऐसा\s+दिखता|ऐसी\s+दिखती|ऐसे\s+दिखते|इस\s+तरह\s+दिखता|प्रारूप|यह\s+एक\s+उदाहरण|এরকম\s+দেখায়|"
        r"এমন\s+দেখায়|এখানে\s+একটি\s+উদাহরণ)" + _ENDS,
        "th": _adverb(r"ตัวอย่างเช่น|ตัวอย่าง|เช่น") + r"|(?:หน้าตาแบบนี้|หน้าตาประมาณนี้|มีลักษณะดังนี้|รูปแบบคือ|นี่คือตัวอย่าง)" + _ENDS,
        "ko": _adverb(r"예를\s+들어|예를\s+들면|예시")
        + r"|(?:예:|이런\s+식|다음과\s+같은\s+형식|형식은|모양입니다|모습입니다|예시는)"
        + _ENDS,
        "sw": _adverb(r"kwa\s+mfano|mfano")
        + r"|\b(?:inaonekana\s+(?:kama\s+)?hivi|kunaonekana\s+hivi|muundo\s+ni|huu\s+ni\s+mfano)\b"
        + _ENDS,
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
        "nl": r"\b(?:je\s+(?:stuurde|hebt\s+(?:me\s+)?gestuurd|plakte)|u\s+(?:stuurde|heeft\s+(?:me\s+)?gestuurd)|"
        r"(?:eerder|gisteren|vorige\s+keer)\b[^\n]{0,60}\b(?:heb\s+ik|voerde\s+ik|riep\s+ik)|wat\s+ik\s+(?:eerder\s+)?deed|"
        r"je\s+(?:laatste\s+)?bericht)\b",
        "sv": r"\b(?:du\s+(?:skickade|har\s+skickat|klistrade\s+in)|(?:tidigare|förut|igår|i\s+går)\b[^\n]{0,60}\b"
        r"(?:körde|anropade|gjorde)\s+jag|jag\s+(?:körde|anropade)\s+(?:tidigare|förut)|här\s+är\s+vad\s+jag\s+gjorde|"
        r"ditt\s+(?:senaste\s+)?meddelande)\b",
        "da-nb": r"\b(?:du\s+(?:sendte|har\s+sendt)|(?:tidligere|i\s+går)\b[^\n]{0,60}\b(?:kørte|kaldte|kjørte|kalte)\s+jeg|"
        r"her\s+er\s+(?:hvad|hva)\s+jeg\s+gjorde|din\s+(?:sidste\s+)?besked|meldingen\s+din)\b",
        "cs-pl": r"\b(?:poslal[ai]?\s+(?:jste|jsi)|(?:dříve|předtím|včera)\b[^\n]{0,60}\b(?:spustil|zavolal|provedl)|"
        r"(?:spustil|provedl)\s+jsem\s+(?:dříve|předtím)|vaše\s+(?:poslední\s+)?zpráv\w*|wysłał[ae]ś|przysłał[ae]ś|"
        r"(?:wcześniej|poprzednio|wczoraj)\b[^\n]{0,60}(?:wykonał|uruchomił|wywołał)\w*|twoja\s+(?:ostatnia\s+)?wiadomość)",
        "uk": r"(?:ви\s+(?:надіслали|прислали|надсилали)|ти\s+(?:надіслав|надіслала|прислав|прислала)|"
        r"(?:раніше|вчора|минулого\s+разу)[^\n]{0,60}я\s+(?:запустив|викликав|виконав)|ваше\w*\s+повідомлен|"
        r"ось\s+що\s+я\s+(?:зробив|робив))",
        "fi-hu": r"\b(?:lähetit|lähetitte|(?:aiemmin|eilen|äsken)\b[^\n]{0,60}\b(?:ajoin|suoritin|kutsuin)|viestisi|"
        r"(?:el)?küldted|küldtél|korábban\b[^\n]{0,60}\b(?:futtattam|hívtam|lefuttattam)|az\s+üzeneted)\b",
        "ro-ca": r"(?:\bmi-a[iț]\s+trimis|\b(?:anterior|mai\s+devreme|ieri)\b[^\n]{0,60}\bam\s+(?:rulat|apelat|executat)|"
        r"\bem\s+vas\s+enviar|\bm['’]has\s+enviat|\babans\b[^\n]{0,60}\bvaig\s+(?:executar|cridar))",
        "tr": r"(?:bana\s+gönderdi\w*|gönderdiğin\w*|(?:daha\s+önce|dün|önceden)[^\n]{0,60}(?:çalıştırdım|çağırdım)|"
        r"son\s+mesajın)",
        "el": r"(?:μου\s+(?:έστειλες|στείλατε|έστειλε)|(?:νωρίτερα|προηγουμένως|χθες)[^\n]{0,60}(?:έτρεξα|εκτέλεσα|κάλεσα)|"
        r"το\s+μήνυμά\s+σου)",
        "vi": r"(?:bạn\s+(?:đã\s+)?gửi\s+(?:cho\s+)?(?:mình|tôi)|(?:trước\s+đó|lúc\s+nãy|hôm\s+qua)[^\n]{0,60}"
        r"(?:đã\s+chạy|đã\s+gọi)|đây\s+là\s+(?:những\s+gì|điều)\s+(?:mình|tôi)\s+đã\s+làm)",
        "id-ms": r"\b(?:(?:kamu|anda|kau)\s+(?:kirim|mengirim|kirimkan)|yang\s+(?:kamu|anda)\s+kirim|"
        r"sebelumnya\s+(?:aku|saya)\b[^\n]{0,40}\b(?:menjalankan|memanggil)|ini\s+yang\s+(?:aku|saya)\s+lakukan)\b",
        "ar-fa": r"(?:أرسلت\s+لي|أرسلتها\s+لي|ما\s+أرسلته|سابقا[^\n]{0,60}(?:نفذت|شغلت)|هذا\s+ما\s+فعلته|"
        r"برایم\s+فرستادی|برای\s+من\s+فرستادی|قبلاً[^\n]{0,60}اجرا\s+کردم)",
        "he": r"(?:שלחת\s+לי|ששלחת|קודם[^\n]{0,60}(?:הרצתי|הפעלתי|ביצעתי|עשיתי)|הנה\s+מה\s+שעשיתי)",
        "hi-bn": r"(?:(?:आपने|तुमने)\s+(?:मुझे\s+)?[^\n]{0,30}भेजा|पहले\s+मैंने|मैंने\s+पहले|আপনি\s+পাঠিয়েছেন|তুমি\s+পাঠিয়েছ|"
        r"আগে\s+আমি)",
        "th-ko": r"(?:คุณส่งมา|ที่คุณส่ง|ก่อนหน้านี้(?:ผม|ฉัน)|보내\s?주신|보내신|이전에[^\n]{0,60}(?:실행|호출)했|"
        r"제가\s+(?:앞서|이전에|아까)\s+(?:실행|호출))",
        "sw": r"\b(?:ulinitumia|mlinitumia|awali\s+nili(?:endesha|ita)|hiki\s+ndicho\s+nilichofanya)\b",
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
        "nl": r"\b(?:ik\s+zou|conceptversie|concept|nog\s+niet\s+(?:verstuurd|opgeslagen|verzonden|uitgevoerd)|"
        r"tot(?:dat)?\s+je\s+(?:het\s+)?bevestigt|als\s+je\s+akkoord\s+(?:gaat|bent))\b|"
        r"^\W{0,4}(?:als\s+(?:dat|dit|het|er|niets|de\s+zoekopdracht|je\s+(?:wilt|akkoord))|indien|zodra|mocht|afhankelijk\s+van)\b"
        + _ENDS
        + r"|\b(?:twee|drie|een\s+paar)\s+(?:manieren|opties|mogelijkheden)\b"
        + _ENDS,
        "sv": r"\b(?:jag\s+skulle|utkast|inte\s+(?:skickat|sparat|genomfört)\s+(?:\w+\s+)?än|tills\s+du\s+"
        r"(?:har\s+)?(?:bekräftat|bekräftar|godkänt|godkänner)|om\s+du\s+godkänner)\b|"
        r"^\W{0,4}(?:om\s+(?:det|du|ni|den|inget|ingenting|sökningen)|ifall|beroende\s+på)\b"
        + _ENDS
        + r"|\b(?:två|tre|flera)\s+(?:sätt|alternativ|möjligheter)\b"
        + _ENDS,
        "da-nb": r"\b(?:jeg\s+ville|udkast|utkast|ikke\s+(?:sendt|gemt|lagret)\s+(?:\w+\s+)?(?:endnu|ennå)|"
        r"(?:indtil|til)\s+du\s+(?:bekræfter|bekrefter|godkender|godkjenner))\b|"
        r"^\W{0,4}(?:hvis|afhængigt\s+af|avhengig\s+av)\b"
        + _ENDS
        + r"|\b(?:to|tre|flere)\s+(?:måder|måter|muligheder|muligheter)\b"
        + _ENDS,
        "cs-pl": r"\b(?:navrhuji|návrh\w*|koncept|zatím\s+(?:\w+\s+)?neodesílám|neodeslal|neuložil|dokud\s+(?:to\s+)?"
        r"nepotvrdí\w*|pokud\s+souhlasíte|szkic|wersja\s+robocza|jeszcze\s+nie\s+(?:wysłał|zapisał)\w*|"
        r"dopóki\s+nie\s+potwierdzi\w*|(?:zapisał|zrobił|wysłał)bym)\b|"
        r"^\W{0,4}(?:pokud|jestli|jestliže|kdyby|v\s+případě|jeśli|jeżeli|gdyby|w\s+razie)\b"
        + _ENDS
        + r"|\b(?:dva|dvě|tři|několik|dwa|dwie|trzy|kilka)\s+(?:způsoby|možnosti|varianty|sposoby|opcje|warianty)\b"
        + _ENDS,
        "uk": r"(?:чернетк\w*|ще\s+не\s+(?:надіслав|зберіг|відправив|застосував)|поки\s+(?:ви\s+не\s+підтвердите|"
        r"ти\s+не\s+підтвердиш)|після\s+вашого\s+підтвердження|я\s+б\s+)|"
        r"^\W{0,4}(?:якщо|коли|у\s+разі|залежно)" + _ENDS + r"|(?:два|три|кілька)\s+(?:способи|варіанти)" + _ENDS,
        "fi-hu": r"\b(?:luonnos|en\s+ole\s+vielä\s+(?:lähettänyt|tallentanut)|kunnes\s+vahvistat|jos\s+hyväksyt|"
        r"piszkozat|vázlat|még\s+nem\s+(?:küldtem|mentettem)|amíg\s+(?:nem\s+)?(?:jóváhagyod|erősíted)|"
        r"ha\s+egyetértesz)\b|^\W{0,4}(?:jos|mikäli|riippuen|ha|amennyiben)\b"
        + _ENDS
        + r"|\b(?:kaksi|kolme|useita|két|három|több)\s+(?:tapaa|vaihtoehtoa|módon|lehetőség)\w*"
        + _ENDS,
        "ro-ca": r"\b(?:ciornă|schiță|încă\s+nu\s+am\s+(?:trimis|salvat)|până\s+(?:nu\s+)?confirmi|dacă\s+ești\s+de\s+acord|"
        r"esborrany|encara\s+no\s+(?:l['’]he\s+)?(?:enviat|desat)|fins\s+que\s+(?:no\s+)?confirmis)\b|"
        r"^\W{0,4}(?:dacă|în\s+cazul|si|quan|un\s+cop)\b" + _ENDS,
        "tr": r"(?:taslak|henüz\s+(?:göndermedim|kaydetmedim|uygulamadım)|onaylayana\s+kadar|onaylarsan|onaylarsanız|"
        r"kabul\s+edersen)|^\W{0,4}(?:eğer)\b" + _ENDS + r"|\b(?:iki|üç|birkaç)\s+(?:yol|seçenek)" + _ENDS,
        "el": r"(?:προσχέδιο|δεν\s+(?:το\s+)?(?:έχω\s+)?(?:στείλει|στείλω|αποθηκεύσει)\s+ακόμ|μέχρι\s+να\s+"
        r"επιβεβαιώσ\w*|αν\s+συμφωνείς|αν\s+συμφωνείτε)|^\W{0,4}(?:αν|εάν|σε\s+περίπτωση)\b"
        + _ENDS
        + r"|(?:δύο|τρεις|μερικοί)\s+(?:τρόποι|επιλογές)"
        + _ENDS,
        "vi": r"(?:bản\s+nháp|chưa\s+(?:gửi|lưu|cập\s+nhật|thực\s+hiện)|(?:cho\s+)?đến\s+khi\s+bạn\s+xác\s+nhận|"
        r"nếu\s+bạn\s+đồng\s+ý)|^\W{0,4}(?:nếu|trong\s+trường\s+hợp|tùy)\b"
        + _ENDS
        + r"|(?:hai|ba|vài)\s+(?:cách|lựa\s+chọn)"
        + _ENDS,
        "id-ms": r"\b(?:draf|belum\s+(?:aku\s+|saya\s+)?(?:dikirim|disimpan|kirim|simpan|kukirim|kusimpan)|"
        r"sampai\s+(?:kamu|anda|kau)\s+(?:konfirmasi|setuju|mengonfirmasi)|(?:kalau|jika)\s+(?:kamu|anda)\s+setuju)\b|"
        r"^\W{0,4}(?:kalau(?!\s+begitu)|jika(?!\s+demikian)|apabila|bila|seandainya)\b"
        + _ENDS
        + r"|\b(?:dua|tiga|beberapa)\s+(?:cara|pilihan|opsi)\b"
        + _ENDS,
        "ar-fa": r"(?:مسودة|لم\s+أرسل|لم\s+أحفظ|حتى\s+تؤكد|بعد\s+تأكيدك|إذا\s+وافقت|پیش[\u200c ]?نویس|"
        r"هنوز\s+(?:ارسال|ذخیره)\s+نکرده|تا\s+(?:وقتی|زمانی)\s+که\s+تأیید|اگر\s+موافق)|"
        r"^\W{0,4}(?:إذا|إن|لو|في\s+حال|اگر|در\s+صورتی)" + _ENDS,
        "he": r"(?:טיוטה|עוד\s+לא\s+(?:שלחתי|שמרתי)|עד\s+שתאשר|אם\s+תאשר)|^\W{0,4}(?:אם|במקרה\s+ש)" + _ENDS,
        "hi-bn": r"(?:मसौदा|ड्राफ्ट|पुष्टि\s+तक|पुष्टि\s+के\s+बाद|नहीं\s+भेज(?:ूँगा|ूंगा|ा)|अगर\s+आप\s+सहमत|খসড়া|"
        r"এখনও\s+পাঠাইনি|নিশ্চিত\s+না\s+করা\s+পর্যন্ত)|^\W{0,4}(?:अगर|यदि|যদি)" + _ENDS,
        "th-ko": r"(?:ฉบับร่าง|ยังไม่ได้(?:ส่ง|บันทึก)|จนกว่าคุณจะยืนยัน|초안|아직\s+(?:보내지|저장하지|전송하지|적용하지)|"
        r"확인해\s?주시면|승인해\s?주시면|동의하시면)|^\W{0,4}(?:ถ้า|หาก|만약)" + _ENDS,
        "sw": r"\b(?:rasimu|bado\s+sija(?:tuma|hifadhi)|mpaka\s+uthibitishe|ukikubali)\b|^\W{0,4}(?:kama|ikiwa)\b"
        + _ENDS,
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
        "nl": r"(?:\b(?:zal|mag|moet|kan)\s+ik\s+(?:\w+\s+){0,2}?(?:dit|dat|het|deze|ze)\b[^\n]*\?|\bklopt\s+(?:dit|dat)\b"
        r"[^\n]*\?|\bis\s+(?:dit|dat)\s+(?:goed|oké|ok|correct|in\s+orde)\b[^\n]*\?|\bzeg\s+(?:ja|maar\s+ja)\b|"
        r"\btot(?:dat)?\s+je\s+(?:het\s+)?bevestigt|\balleen\s+als\b|\bdan\s+(?:voer|sla|stuur)\s+ik\s+(?:het|dit|dat)\b)",
        "sv": r"(?:\bska\s+jag\s+(?:\w+\s+){0,2}?(?:det|den|detta|dem)\b[^\n]*\?|\bstämmer\s+(?:det|detta)\b[^\n]*\?|"
        r"\bser\s+(?:det|detta)\s+(?:rätt|bra)\s+ut\b|\bsäg\s+till\s+om\s+det\s+stämmer|\bsvara\s+ja\b|"
        r"\bså\s+(?:genomför|sparar|skickar|uppdaterar|kör)\s+jag\s+(?:den|det|ändringen)\b|\btills\s+du\s+bekräftar|"
        r"\bbara\s+om\s+du\b)",
        "da-nb": r"(?:\bskal\s+jeg\s+(?:\w+\s+){0,2}?(?:det|den|dette|dem)\b[^\n]*\?|\bser\s+det\s+(?:rigtigt|riktig)\s+ud?t?\b|"
        r"\ber\s+det\s+(?:ok|okay|i\s+orden|greit|korrekt|riktig)\s*\?|\bsig\s+ja\b|\bsi\s+ja\b|"
        r"\b(?:indtil|til)\s+du\s+(?:bekræfter|bekrefter))",
        "cs-pl": r"(?:\bmám\s+(?:to|ji|jej|ho|je)\b[^\n]*\?|\bmůžu\s+(?:to|ji|jej)\b[^\n]*\?|\b(?:stačí\s+)?napi[sš]\w*\s+"
        r"[\"„“]?ano\b|\bje\s+to\s+(?:tak\s+)?(?:v\s+pořádku|správně)\s*\?|\bdokud\s+(?:to\s+)?nepotvrdí|"
        r"\bczy\s+mam\s+(?:to|je|go|ją)\b[^\n]*\?|\bczy\s+(?:to|tak)\s+(?:jest\s+)?(?:ok|dobrze|w\s+porządku)\b"
        r"[^\n]*\?|\bnapisz\s+[\"„“]?tak\b|\bdopóki\s+nie\s+potwierdzi|\btylko\s+jeśli\b)",
        "uk": r"(?:(?:це|його|її)\s+(?:зберегти|надіслати|застосувати)\s*\?|(?:зберегти|надіслати|застосувати)\s+(?:це|його|її)"
        r"\s*\?|^\W{0,3}(?:зберегти|надіслати|застосувати)\s*\?|все\s+правильно\s*\?|підтвердіть|чи\s+можна\s+"
        r"(?:зберегти|надіслати)|тільки\s+якщо|лише\s+якщо|ви\s+впевнені|хочете,?\s+щоб\s+я\s+(?:це|його|її))",
        "fi-hu": r"(?:\b(?:tallennanko|lähetänkö|päivitänkö|teenkö)\s+(?:sen|tämän|tuon|nämä|ne|näin)\b|"
        r"^\W{0,3}(?:tallennanko|lähetänkö|päivitänkö)\s*\?|\bsopiiko\s+(?:tämä|tuo|se)\b[^\n]*\?|\bnäyttääkö\s+"
        r"(?:tämä|tuo|se)\s+oikealta|\bkunhan\s+vahvistat|\bkun\s+vahvistat|\bvahvistatko\b|\bvain\s+jos\b|"
        r"\b(?:elmentsem|elküldjem|alkalmazzam|frissítsem)\s+(?:így|ezt|azt)\b|\b(?:ezt|azt|így)\s+"
        r"(?:elmentsem|elküldjem|alkalmazzam|frissítsem)\b|\bígy\s+jó\s*\?|\brendben\s+(?:van\s+)?így\s*\?|"
        r"\berősítsd\s+meg\b|\bhagyd\s+jóvá\b)",
        "ro-ca": r"(?:\bsă\s+(?:îl|o|le|îi)\s+(?:salvez|trimit|aplic)\b[^\n]*\?|\be\s+(?:în\s+regulă|corect)\s+așa\s*\?|"
        r"\bconfirmă-mi\b|\bpână\s+(?:nu\s+)?confirmi|\b(?:el|la|ho)\s+(?:deso|envio|aplico)\b[^\n]*\?|"
        r"\bet\s+sembla\s+bé\s*\?|\bfins\s+que\s+(?:no\s+)?confirmis|\bnomés\s+si\b)",
        "tr": r"(?:(?:^\W{0,3}|\b(?:bunu|onu|bunları)\s+(?:\w+\s+)?)(?:kaydedeyim|göndereyim|uygulayayım|çalıştırayım)\s+mi\b|"
        r"(?:bu|böyle)\s+(?:doğru|uygun|tamam)\s+mu\b|onaylayana\s+kadar|onaylarsan(?:ız)?\s+(?:kaydeder|gönderir|uygular))",
        "el": r"(?:να\s+(?:το|την|τα|τον)\s+(?:αποθηκεύσω|στείλω|εφαρμόσω|εκτελέσω)\b|είναι\s+σωστό\s*[;;?]|μέχρι\s+να\s+"
        r"επιβεβαιώσ|πες\s+μου\s+ναι|μόνο\s+αν\b|να\s+προχωρήσω\s*[;;?])",
        "vi": r"(?:bạn\s+xác\s+nhận\s+thì|xác\s+nhận\s+giúp|(?:lưu|gửi|cập\s+nhật)\s+(?:nhé|nha|không)\s*\?|"
        r"(?:như\s+vậy|thế\s+này|vậy)\s+(?:được|ổn|đúng)\s+(?:chưa|không)|đồng\s+ý\s+thì|cho\s+đến\s+khi\s+bạn\s+xác\s+nhận)",
        "id-ms": r"(?:\bboleh\s+(?:aku|saya)\s+(?:simpan|kirim|terapkan|jalankan|lanjutkan|perbarui)\w*\s*(?:ini|itu|sekarang)?"
        r"\s*\?|\b(?:bilang|katakan|jawab|balas)\s+[\"“]?ya\b|\b(?:kalau|jika)\s+(?:kamu|anda)?\s*setuju\b|"
        r"\bsetelah\s+(?:kamu|anda)\s+(?:konfirmasi|setuju)|\bapakah\s+(?:ini|itu)\s+sudah\s+benar\b|"
        r"\bperlu\s+(?:aku|saya)\s+(?:simpan|kirim)\w*\s*\?)",
        "ar-fa": r"(?:أن\s+أ(?:حفظ|رسل|نفذ|طبق)(?:ها|ه)|هل\s+أ(?:حفظ|رسل|نفذ|طبق)(?:ها|ه)|(?:أخبرني|قل\s+نعم)\s+وسأ(?:نفذ|حفظ|رسل|طبق)|حتى\s+تؤكد|"
        r"بعد\s+تأكيدك|هل\s+هذا\s+صحيح|ذخیره(?:\u200c?اش)?\s+کنم\s*[؟?]|بفرستم\s*[؟?]|تأیید\s+کن|تایید\s+کن)",
        "he": r"(?:נראה\s+נכון\s*\?|תגיד(?:י)?\s+כן|אם\s+תאשר|עד\s+שתאשר|(?:לשמור|לשלוח|לעדכן)\s+את\s+זה\s*\?|"
        r"האם\s+(?:לשמור|לשלוח|לעדכן))",
        "hi-bn": r"(?:क्या\s+मैं\s+(?:इसे|यह|इसको)|(?:सहेज|भेज)(?:ूँ|ूं)\s*\?|पुष्टि\s+करें|(?:हाँ|हां)\s+कहें|"
        r"अगर\s+आप\s+सहमत|সংরক্ষণ\s+করব\s*\?|পাঠাব\s*\?|নিশ্চিত\s+করুন)",
        "th-ko": r"(?:(?:บันทึก|ส่ง)(?:เลย)?(?:ไหม|มั้ย)|ถูกต้องไหม|ตกลงไหม|กรุณายืนยัน|"
        r"(?:이대로|이렇게|이걸|이것을|그대로)\s*(?:\S+\s+)?(?:저장|전송|적용|진행|실행)할까요|이대로\s+괜찮|"
        r"확인해\s?주시면|승인해\s?주(?:세요|시면))",
        "sw": r"(?:\bnihifadhi\s*\?|\bnitume\s*\?|\bje,?\s+ni\s+sawa\s*\?|\bthibitisha\b|\bsema\s+ndiyo\b)",
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
        "nl": r"(?:(?:slechts|alleen|maar|gewoon)\s+een\s+voorbeeld|\bniets\s+(?:is\s+)?(?:opgeslagen|verstuurd|uitgevoerd)|"
        r"\bik\s+heb\s+(?:niets|het\s+niet)\s+(?:opgeslagen|uitgevoerd|verstuurd)|\bniet\s+uitgevoerd)",
        "sv": r"(?:\b(?:bara|endast|enbart)\s+ett\s+exempel|\binget\s+(?:har\s+)?(?:sparats|sparades|skickats|körts)|"
        r"\bjag\s+har\s+inte\s+(?:sparat|kört|skickat)|\bhar\s+inte\s+(?:sparats|körts|skickats))",
        "da-nb": r"(?:\b(?:kun|bare)\s+et\s+eksempel|\b(?:intet|ingenting)\s+er\s+(?:gemt|sendt|kørt|lagret|kjørt)|"
        r"\bjeg\s+har\s+ikke\s+(?:gemt|kørt|sendt|lagret|kjørt))",
        "cs-pl": r"(?:\bjen\s+(?:pro\s+)?(?:ukázk|příklad)|\bpouze\s+příklad|\bnic\s+(?:jsem\s+)?(?:neuložil|nespustil|neodeslal)|"
        r"\bnic\s+nebylo|\b(?:tylko|jedynie)\s+przykład|\bnic\s+nie\s+(?:zostało\s+)?(?:zapisan|wysłan|uruchomion|zapisałem)|"
        r"\bnie\s+(?:zapisałem|wykonałem|uruchomiłem))",
        "uk": r"(?:(?:лише|тільки|просто)\s+приклад|нічого\s+не\s+(?:збережено|зберіг|виконано|надіслано|виконував)|"
        r"не\s+(?:виконував|зберігав|запускав))",
        "fi-hu": r"(?:\b(?:vain|pelkkä|pelkästään)\s+esimerkki|\ben\s+(?:tehnyt|tallentanut|suorittanut|lähettänyt)\b|"
        r"\bmitään\s+ei\s+(?:tallennettu|lähetetty|suoritettu)|\bcsak\s+(?:egy\s+)?példa|\bnem\s+(?:mentettem|"
        r"futtattam|küldtem)|\bsemmi(?:t)?\s+nem\s+(?:mentettem|futtattam|küldtem))",
        "ro-ca": r"(?:\bdoar\s+un\s+exemplu|\bnu\s+am\s+(?:salvat|rulat|executat|trimis)|\bnimic\s+nu\s+a\s+fost|"
        r"\bnomés\s+(?:és\s+)?un\s+exemple|\bno\s+(?:he|s['’]ha)\s+(?:desat|executat|enviat))",
        "tr": r"(?:(?:sadece|yalnızca)\s+(?:bir\s+)?örnek|hiçbir\s+şey\s+(?:kaydedilmedi|gönderilmedi|çalıştırılmadı)|"
        r"(?:kaydetmedim|çalıştırmadım|göndermedim))",
        "el": r"(?:(?:απλώς|μόνο)\s+(?:ένα\s+)?παράδειγμα|δεν\s+(?:αποθήκευσα|εκτέλεσα|έστειλα)|τίποτα\s+δεν\s+(?:αποθηκεύτηκε|εκτελέστηκε|στάλθηκε))",
        "vi": r"(?:chỉ\s+là\s+(?:một\s+)?(?:ví\s+dụ|minh\s+họa|minh\s+hoạ)|chưa\s+(?:lưu|gửi|chạy|thực\s+hiện)\s+gì|"
        r"không\s+(?:lưu|chạy)\s+gì)",
        "id-ms": r"(?:\b(?:hanya|cuma|sekadar)\s+(?:sebuah\s+|satu\s+)?contoh|\bbelum\s+ada\s+yang\s+(?:disimpan|dijalankan|"
        r"dikirim)|\btidak\s+ada\s+yang\s+(?:disimpan|dijalankan)|\b(?:aku|saya)\s+(?:tidak|belum)\s+(?:menyimpan|"
        r"menjalankan|mengirim)\w*)",
        "ar-fa": r"(?:مجرد\s+مثال|فقط\s+مثال|لم\s+(?:أبحث|أحفظ|أنفذ|أرسل)|لم\s+يتم\s+(?:حفظ|تنفيذ|إرسال)|"
        r"فقط\s+یک\s+مثال|(?:ذخیره|اجرا|ارسال)\s+نکردم)",
        "he": r"(?:רק\s+דוגמ|לא\s+(?:שמרתי|הרצתי|שלחתי|ביצעתי)|שום\s+דבר\s+לא\s+(?:נשמר|נשלח|בוצע))",
        "hi-bn": r"(?:(?:सिर्फ़|सिर्फ|केवल|मात्र)\s+(?:एक\s+)?उदाहरण|(?:सहेजा|चलाया|भेजा)\s+नहीं|नहीं\s+(?:सहेजा|चलाया|भेजा)|"
        r"শুধু(?:মাত্র)?\s+(?:একটি\s+)?উদাহরণ|সংরক্ষণ\s+করিনি)",
        "th-ko": r"(?:แค่ตัวอย่าง|เพียงตัวอย่าง|ยังไม่ได้(?:บันทึก|ส่ง|รัน)|예시일\s+뿐|예일\s+뿐|(?:저장|실행|전송)하지\s+않았|"
        r"아무것도\s+(?:저장|실행))",
        "sw": r"(?:\bni\s+mfano\s+tu\b|\bsijahifadhi\b|\bsijaendesha\b|\bhakuna\s+kilichohifadhiwa\b)",
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
        "nl": r"(?:\bvergeet\s+(?:dat|dit|het\s+vorige|de\s+vorige|die)|\bnegeer\b|\bverkeerde\s+(?:blok|aanroep)|"
        r"\bdat\s+was\s+fout)",
        "sv": r"(?:\bglöm\s+(?:det|blocket|anropet|den)\b|\bignorera\b|\bstrunta\s+i\b|\bfel\s+(?:block|anrop)\b|"
        r"\bdet\s+blev\s+fel\b|\bjag\s+tar\s+tillbaka)",
        "da-nb": r"(?:\bglem\s+(?:det|blokken|kaldet|kallet)\b|\bignorer\b|\b(?:forkert|feil)\s+(?:blok|blokk|kald|kall)\b|"
        r"\bjeg\s+(?:tager|tar)\s+det\s+tilbake?)",
        "cs-pl": r"(?:\b(?:předchozí|ten|tamten|první)\s+(?:blok|příkaz|zápis)\s+neplatí\b|\bignoruj\w*|\bzapomeň(?:te)?\s+na\b|\bsplet\w*\s+jsem|\bto\s+je\s+špatně|\bzignoruj\w*|"
        r"\bzapomnij\s+o\b|\bpomyli\w*|\bto\s+był\s+błąd)",
        "uk": r"(?:ігноруй\w*|забудь(?:те)?\s+(?:це|про\s+(?:це|попередн))|я\s+помили\w*|не\s+враховуй\w*)",
        "fi-hu": r"(?:\bunohda\s+(?:tuo|se|edellinen|äskeinen)|\bohita\s+(?:tuo|se|edellinen)|\bjätä\s+(?:tuo|edellinen\s+)?"
        r"huomiotta|\bväärä\s+(?:lohko|kutsu)|\bfelejtsd\s+el|\bhagyd\s+figyelmen\s+kívül|\btévedtem\b)",
        "ro-ca": r"(?:\bignoră\b|\buită\s+de\b|\bam\s+greșit\b|\bgreșeala\s+mea\b|\boblida\b|\bignora\b|"
        r"\bm['’]he\s+equivocat)",
        "tr": r"(?:yoksay|görmezden\s+gel|(?:bunu|onu|öncekini)\s+unut|hata\s+yaptım|yanlış\s+(?:oldu|blok|çağrı))",
        "el": r"(?:αγνόησε|αγνοήστε|ξέχνα\s+(?:το|αυτό)|λάθος\s+μου|έκανα\s+λάθος)",
        "vi": r"(?:bỏ\s+qua\s+(?:khối|lệnh|cái)|quên\s+(?:khối|lệnh|cái)\s+(?:đó|trên|vừa\s+rồi)|(?:mình|tôi)\s+nhầm|"
        r"(?:khối|lệnh)\s+(?:trên|vừa\s+rồi)\s+sai)",
        "id-ms": r"(?:\babaikan\b|\blupakan\s+(?:yang|blok|itu)\b|\b(?:aku|saya)\s+keliru\b|\bsalah\s+(?:ketik|blok)\b)",
        "ar-fa": r"(?:تجاهل|انسَ\s+|انس\s+(?:ذلك|هذا)|خطأ\s+مني|أخطأت|نادیده\s+بگیر|اشتباه\s+کردم)",
        "he": r"(?:התעלם|תתעלם|שכח\s+מזה|טעות\s+שלי|טעיתי)",
        "hi-bn": r"(?:नज़रअंदाज़|नजरअंदाज|अनदेखा|गलती\s+हो\s+गई|ग़लती\s+हो\s+गई|উপেক্ষা|ভুল\s+হয়েছে)",
        "th-ko": r"(?:ไม่ต้องสนใจ|ละเว้น|무시해|무시하세요|잘못\s+(?:입력|보냈|썼))",
        "sw": r"(?:\bpuuza\b|\bnimekosea\b)",
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


def quote_words(words: str) -> str:
    """Words next to a block as a note to the model quotes them: on one line, at most 60 characters."""
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
    if OPTION_LABEL.match(before):
        return Shown("example", "it is an alternative labelled on the line before", quote_words(before))
    sentence = last_sentence(before)
    if not opens_onto_next(sentence):
        return None  # a line that ends its own sentence introduces nothing
    kind = _BEFORE_TABLE.first(sentence)
    return None if kind is None else Shown(kind, _WHY_BEFORE[kind], quote_words(sentence))


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
            "승인해",
            "실행할까요",
            "이대로",
            "저장할까요",
            "적용할까요",
            "전송할까요",
            "진행할까요",
            "확인해",
        ],
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
            "무시해",
            "잘못",
        ],
    ),
}


# One pass over a line finds which kinds' gate texts it holds; a line with none of them (most
# prose) goes at the cost of that pass, and the word table is read only for the kinds it holds.
_AFTER_GATES = Gates(AFTER_GATES)


def shown_after(after: str) -> Shown | None:
    """Why the lines directly after a performed-looking block make it something shown (a
    permission request, a disclaimer, a retraction, a condition on an earlier result)."""
    lines = [line for line in after.split("\n", 8)[:8] if line.strip()][:AFTER_LINES]
    for line in lines:
        line = line[:LINE_CHARS]
        low = line.lower()
        gated = _AFTER_GATES.held(low)
        if not gated:
            continue
        kind = _AFTER_TABLE.first(line, low if low.isascii() else fold(line), gated)
        if kind is not None:
            return Shown(kind, _WHY_AFTER[kind], quote_words(line))
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
