"""Natural mode: the stand-in writes its calls inside the prose real models put around them.

Models rarely answer with a bare call block. They open with a preamble ("Great, I'll note the
cuisines you enjoy, such as Thai and Ethiopian."), sometimes think first, sometimes summarise in
a list, and close with a sign-off or a question about something else. Every sentence here
performs the call it comes with or talks about something else: none introduces the block as an
example, asks permission for it, or takes it back, so every call in a natural reply is meant to
run. The everyday words a careless reader could take for an example ("such as", "like",
"format", "list", "should", "each", "available", ...) are there on purpose.

Replies are drawn from a seeded generator, so a seed gives the same replies in the same order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Voice:
    """What a model writes around its calls in one language."""

    openers: tuple[str, ...]
    preambles: tuple[str, ...]  # the sentence right before the first call
    asides: tuple[str, ...]  # an everyday paragraph before the preamble, in longer replies
    between: tuple[str, ...]  # before each further call
    signoffs: tuple[str, ...]
    thoughts: tuple[str, ...]  # reasoning, closed before the reply


ENGLISH = Voice(
    openers=(
        "Great!",
        "Sure thing.",
        "Of course!",
        "Got it.",
        "Absolutely.",
        "Oh, nice!",
        "Understood.",
        "Okay!",
        "Happy to help.",
        "Ah, good to know.",
        "Certainly.",
        "Love that!",
        "Thanks for telling me!",
        "Sorry for the slow reply!",
        "Noted, thank you.",
    ),
    preambles=(
        "Great, I'll note the cuisines you enjoy, such as Thai and Ethiopian.",
        "I'll make a note of that.",
        "Let me save that for you.",
        "Saving that to your profile now.",
        "I'll remember that, like you asked.",
        "Writing that down so I don't forget.",
        "Noting it in your memory block.",
        "I'll keep that in mind from now on.",
        "Adding it to the list of things I know about you.",
        "That's the kind of detail I should remember, so I'm saving it.",
        "Your blog lives at example.org, noted.",
        "Saving your preferred time format (24-hour).",
        "I'll store it in the same format as your other notes.",
        "Good example of something worth remembering, so here goes.",
        "I'll update your profile with each of the details you gave me.",
        "All of that is worth keeping, so I'm recording it.",
        "If you want to change it later, just tell me; for now I'm saving it.",
        "I would hate to forget this, so I'm writing it down.",
        "Everything available so far goes into your notes.",
        "Storing it now, in plain words, like the rest of your profile.",
        "I'll file that away with your other preferences.",
        "Let me record that properly.",
        "I've got a spot for that in your notes.",
        "Making a note of it right away.",
        "I'll add it to what I keep about you, such as your schedule and favourite places.",
        "That should help me give better suggestions, so I'm saving it.",
        "Perfect, updating my notes.",
        "I'll put that in memory so it sticks.",
        "Recording this one straight away.",
        "I'm jotting that down, the same way I keep your other details.",
        "Quick update to your profile coming up.",
        "I'm keeping a list of things like this, and this one goes on it.",
        "Let me update what I have on file.",
        "I'll look that up in our earlier messages.",
        "Let me check what we talked about before.",
        "I'll search my notes for that.",
        "Updating your memory with the new details.",
        "So that I get it right next time, I'm saving it now.",
        "Right, into memory it goes.",
        "One small note for later.",
    ),
    asides=(
        "That sounds lovely, by the way; I looked at https://www.example.com/guide and it seems like a great choice.",
        "Honestly, **this** is exactly the sort of thing that makes planning easier later on.",
        "You mentioned a few things, such as the trip and the new job, and they all sound exciting.",
        "Small tip: a short list of priorities, like three things a day, usually works better than a long one.",
        "I checked the format you use for dates elsewhere and will stick to it.",
        "Each of those details helps me tailor suggestions, for example when we plan meals.",
        "What a week it has been for you! Did the meeting on Tuesday go well?",
        "The forecast says *sunny* all weekend, so your plans should work out.",
        "By the way, the article at https://en.wikipedia.org/wiki/Memory has a nice overview if you are curious.",
        "You should be proud of that, it is not a small thing.",
    ),
    between=(
        "And the second detail:",
        "Next, the other part.",
        "Also saving this one.",
        "One more thing to note.",
        "And this as well.",
        "Then the rest of it.",
    ),
    signoffs=(
        "Let me know if there's anything else!",
        "Anything else you'd like me to remember?",
        "Have a great day!",
        "Talk soon!",
        "Is there anything else on your mind?",
        "Hope the rest of your day goes well.",
        "Want me to remind you about it later?",
        "Should I also keep track of your other plans this week?",
        "Would you like me to set up a weekly check-in as well?",
        "By the way, how did the trip go?",
        "Shall I also look up a few restaurants nearby, such as ones with vegetarian options?",
        "Cheers!",
        "Thanks for sharing that with me.",
        "Feel free to ask me anything else.",
        "Do you want me to add your allergies as well, or is that covered?",
        "Let me know if you'd like a list of ideas for the weekend too.",
        "Happy to help with anything else, for example planning next week.",
        "Take care!",
        "That's all for now, I think!",
        "Good luck with everything!",
    ),
    thoughts=(
        "The user shared something worth keeping. A memory edit fits; no need to ask.",
        "This is a lasting detail, so it belongs in memory. I'll save it and reply briefly.",
        "They asked me to remember something. Use the memory tool, then answer.",
        "Straightforward request: record it, then a short friendly reply.",
    ),
)

VOICES: dict[str, Voice] = {
    "en": ENGLISH,
    "es": Voice(
        openers=("¡Genial!", "¡Claro!", "Entendido.", "¡Qué bien!", "Perfecto."),
        preambles=(
            "Perfecto, guardo los platos que te gustan, como el ceviche y el lomo saltado.",
            "Lo apunto para no olvidarlo.",
            "Guardo ese dato en tu perfil.",
            "Lo anoto, como me pediste.",
            "Actualizo mis notas con esto.",
            "Me lo guardo en la memoria ahora mismo.",
            "Lo añado a la lista de cosas que sé de ti.",
        ),
        asides=(
            "Por cierto, miré https://www.example.com/guia y parece una gran opción.",
            "Todo eso suena muy bien, sobre todo lo del viaje.",
        ),
        between=("Y lo otro:", "También guardo esto."),
        signoffs=(
            "¿Algo más que quieras que recuerde?",
            "¡Que tengas un buen día!",
            "¿Quieres que te recuerde algo más esta semana?",
            "Aquí estoy para lo que necesites.",
        ),
        thoughts=("El usuario comparte un dato duradero. Lo guardo en memoria y respondo breve.",),
    ),
    "fr": Voice(
        openers=("Super !", "Bien sûr !", "C'est noté.", "Parfait."),
        preambles=(
            "Parfait, je retiens les fromages que tu aimes, comme le comté et le roquefort.",
            "Je le note pour ne pas l'oublier.",
            "J'enregistre cela dans ton profil.",
            "Je mets ça de côté, comme tu me l'as demandé.",
            "Je mets à jour mes notes avec ça.",
            "Je l'ajoute à la liste de ce que je sais de toi.",
        ),
        asides=(
            "Au passage, j'ai regardé https://www.example.com/guide et ça a l'air très bien.",
            "Tout ça a l'air passionnant, surtout le voyage.",
        ),
        between=("Et l'autre point :", "J'enregistre aussi ceci."),
        signoffs=(
            "Autre chose que je devrais retenir ?",
            "Bonne journée !",
            "Veux-tu que je te le rappelle plus tard ?",
            "Je reste disponible si besoin.",
        ),
        thoughts=("Information durable sur l'utilisateur : je l'enregistre et je réponds brièvement.",),
    ),
    "de": Voice(
        openers=("Super!", "Klar!", "Alles klar.", "Gern."),
        preambles=(
            "Alles klar, ich merke mir deine Lieblingsbücher, zum Beispiel die Krimis von Henning Mankell.",
            "Ich notiere mir das.",
            "Das speichere ich in deinem Profil.",
            "Ich schreibe es mir auf, wie gewünscht.",
            "Ich aktualisiere meine Notizen damit.",
            "Das kommt auf die Liste der Dinge, die ich über dich weiß.",
        ),
        asides=(
            "Übrigens habe ich mir https://www.example.com/ratgeber angesehen, das klingt gut.",
            "Das klingt alles spannend, vor allem die Reise.",
        ),
        between=("Und das andere:", "Das hier speichere ich auch."),
        signoffs=(
            "Soll ich mir noch etwas merken?",
            "Einen schönen Tag noch!",
            "Soll ich dich später daran erinnern?",
            "Melde dich, wenn du noch etwas brauchst.",
        ),
        thoughts=("Dauerhafte Information über den Nutzer. Speichern und kurz antworten.",),
    ),
    "pt": Voice(
        openers=("Legal!", "Claro!", "Entendido.", "Perfeito."),
        preambles=(
            "Legal, vou guardar os estilos de música de que você gosta, como bossa nova e MPB.",
            "Vou anotar isso.",
            "Guardando isso no seu perfil.",
            "Anoto, como você pediu.",
            "Atualizo as minhas notas com isso.",
        ),
        asides=("Aliás, vi https://www.example.com/guia e parece uma ótima opção.",),
        between=("E a outra parte:", "Também guardo isto."),
        signoffs=("Mais alguma coisa que eu deva lembrar?", "Tenha um ótimo dia!", "Quer que eu te lembre depois?"),
        thoughts=("Informação duradoura sobre o usuário. Guardar e responder curto.",),
    ),
    "it": Voice(
        openers=("Ottimo!", "Certo!", "Capito.", "Perfetto."),
        preambles=(
            "Perfetto, mi segno i registi che ami, come Fellini, per esempio La dolce vita.",
            "Me lo segno.",
            "Lo salvo nel tuo profilo.",
            "Lo annoto, come mi hai chiesto.",
            "Aggiorno le mie note con questo.",
        ),
        asides=("A proposito, ho guardato https://www.example.com/guida e sembra un'ottima scelta.",),
        between=("E l'altra cosa:", "Salvo anche questo."),
        signoffs=("C'è altro che dovrei ricordare?", "Buona giornata!", "Vuoi che te lo ricordi più tardi?"),
        thoughts=("Informazione duratura sull'utente. La salvo e rispondo in breve.",),
    ),
    "ru": Voice(
        openers=("Отлично!", "Конечно!", "Понял.", "Хорошо."),
        preambles=(
            "Отлично, запомню блюда, которые вам нравятся, такие как хачапури и хинкали.",
            "Запишу это.",
            "Сохраняю это в ваш профиль.",
            "Записываю, как вы и просили.",
            "Обновляю свои заметки.",
        ),
        asides=("Кстати, я посмотрел https://www.example.com/guide — выглядит отлично.",),
        between=("И второе:", "Это тоже сохраняю."),
        signoffs=("Что-нибудь ещё запомнить?", "Хорошего дня!", "Напомнить вам об этом позже?"),
        thoughts=("Пользователь сообщил важный факт. Сохраняю и отвечаю кратко.",),
    ),
    "zh": Voice(
        openers=("好的！", "没问题！", "明白了。", "太好了！"),
        preambles=(
            "好的，我会记住你喜欢的菜，比如麻婆豆腐和水煮鱼。",
            "我记下来了。",
            "我把这个保存到你的资料里。",
            "按你说的，我记一下。",
            "我更新一下我的笔记。",
        ),
        asides=("顺便说一下，我看了 https://www.example.com/guide，看起来很不错。",),
        between=("还有另一件事：", "这个也保存一下。"),
        signoffs=("还有什么需要我记住的吗？", "祝你今天愉快！", "需要我之后提醒你吗？"),
        thoughts=("用户分享了一个长期信息，保存到记忆里，然后简短回复。",),
    ),
    "ja": Voice(
        openers=("いいですね！", "了解です。", "わかりました。", "もちろんです。"),
        preambles=(
            "わかりました。村上春樹や吉本ばななのような、好きな作家を覚えておきますね。",
            "メモしておきます。",
            "プロフィールに保存しますね。",
            "言われたとおり、記録しておきます。",
            "メモを更新します。",
        ),
        asides=("ちなみに https://www.example.com/guide を見ましたが、良さそうです。",),
        between=("それからもう一つ：", "これも保存します。"),
        signoffs=("ほかに覚えておくことはありますか？", "良い一日を！", "あとでリマインドしましょうか？"),
        thoughts=("ユーザーが長く役立つ情報を教えてくれた。記憶に保存して、短く返事する。",),
    ),
}


def pool_size() -> int:
    """How many sentences natural mode draws from, in all languages."""
    return sum(
        len(v.openers) + len(v.preambles) + len(v.asides) + len(v.between) + len(v.signoffs) + len(v.thoughts)
        for v in VOICES.values()
    )


def natural_reply(blocks: list[str], rng: random.Random, *, saves: bool = True) -> str:
    """The call blocks, in order, inside the prose of one reply. ``saves``: the calls store or
    look something up (the preambles say so); otherwise the reply only opens with a word or two
    (a call that only answers the user, such as ``send_message``)."""
    voice = ENGLISH if rng.random() < 0.6 else VOICES[rng.choice([k for k in VOICES if k != "en"])]
    parts: list[str] = []
    if rng.random() < 0.12:
        parts.append(f"<think>\n{rng.choice(voice.thoughts)}\n</think>")
    lead: list[str] = []
    opener = rng.choice(voice.openers) if rng.random() < 0.4 or not saves else ""
    preamble = rng.choice(voice.preambles) if saves else ""
    if opener and (not preamble or opener.split()[0].strip("!,.") != preamble.split()[0].strip("!,.")):
        lead.append(opener)
    if not saves:
        parts.append(" ".join(lead))
    elif rng.random() < 0.25:
        # A longer reply: an everyday paragraph, then the preamble in a paragraph of its own.
        parts.append(" ".join([*lead, rng.choice(voice.asides)]) + "\n\n" + preamble)
    else:
        parts.append(" ".join([*lead, preamble]))
    for i, block in enumerate(blocks):
        if i and rng.random() < 0.5:
            parts.append(rng.choice(voice.between))
        parts.append(block)
    if rng.random() < 0.65:
        parts.append(rng.choice(voice.signoffs))
    out = ""
    for i, part in enumerate(parts):
        # A blank line or a plain line break between parts, as models vary it.
        out += part if i == 0 else ("\n\n" if rng.random() < 0.4 else "\n") + part
    return out
