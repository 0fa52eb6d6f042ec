"""Checks under a lead, in 33 languages: what a short question right under a block does, by the lead above it.

A lead that names the writer's step now, next or done ("Saving this now:", "Zapisuję:", "저장했습니다:"),
then the block, then nothing, thanks, or a local check ("OK?", "Dobrze?", "괜찮아요?"): the block was
performed, and must run. A lead that hedges, wishes, proposes, shows or labels the block ("I could add it
like this:", "Θέλω να γράψω:", "Propongo:", "Draft:"), then the same checks or a question asking leave:
the block waits for the reader, and must not run. Printed: the performed replies lost and the shown
replies run, per language, and their totals, one-shot (16-character streams are counted where they
differ). Asserts nothing; ``tests/core/test_presenting_leads.py`` holds that the shown side runs nothing.

    python3 dev.py bench lead_checks [-v]      (-v: every reply lost or run)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.parser_accuracy import load_tools, parse_once, parse_streamed  # noqa: E402

BLOCK = (
    'TOOL_CALL_START\n{"function": "core_memory_append", "params": {"label": "human", "content": "X"}}\nTOOL_CALL_END'
)

# Per language: leads that name the writer's step, and the local checks that may follow them
PERFORMED: dict[str, tuple[list[str], list[str]]] = {
    "el": (
        [
            "Αποθηκεύω:",
            "Το αποθηκεύω τώρα:",
            "Σημειώνω ότι σου αρέσει το τσάι:",
            "Το κράτησα:",
            "Αποθηκεύτηκε:",
            "Προσθέτω στη μνήμη:",
        ],
        ["Εντάξει;", "Σωστό;", "Ευχαριστώ!"],
    ),
    "vi": (
        [
            "Mình lưu lại nhé:",
            "Đã ghi nhớ:",
            "Tôi sẽ lưu thông tin này:",
            "Lưu lại ngay:",
            "Ok, mình ghi chú lại:",
            "Để mình lưu:",
        ],
        ["Được không?", "Đúng chưa?", "Cảm ơn bạn!"],
    ),
    "tr": (
        [
            "Kaydediyorum:",
            "Hemen not alıyorum:",
            "Bunu hafızama ekleyeceğim:",
            "Kaydettim:",
            "Not aldım:",
            "Şimdi güncelliyorum:",
        ],
        ["Tamam mı?", "Doğru mu?", "Teşekkürler!"],
    ),
    "cs": (
        ["Ukládám:", "Uložím si to:", "Zapisuji si:", "Hned to uložím:", "Uloženo:", "Přidávám do paměti:"],
        ["Dobře?", "Sedí to?", "Díky!"],
    ),
    "fa": (
        ["ذخیره می‌کنم:", "یادداشت کردم:", "الان ذخیره‌اش می‌کنم:", "این را به حافظه اضافه می‌کنم:", "ثبت شد:"],
        ["درسته؟", "خوبه؟", "ممنون!"],
    ),
    "ar": (
        ["سأحفظ هذا:", "حفظت ذلك:", "أضيف هذا إلى الذاكرة:", "تم الحفظ:", "سأسجل ذلك الآن:"],
        ["صحيح؟", "تمام؟", "شكراً!"],
    ),
    "hi": (["मैं इसे सेव कर रहा हूँ:", "नोट कर लिया:", "अभी सहेज देता हूँ:", "मैंने इसे जोड़ दिया:"], ["ठीक है?", "सही है?", "धन्यवाद!"]),
    "pl": (
        ["Zapisuję:", "Zanotowałem:", "Dodam to do pamięci:", "Już zapisuję:", "Zapisano:"],
        ["Dobrze?", "Zgadza się?", "Dzięki!"],
    ),
    "uk": (
        ["Зберігаю:", "Записую:", "Я зберіг це:", "Додаю до пам'яті:", "Збережено:"],
        ["Так?", "Правильно?", "Дякую!"],
    ),
    "he": (["אני שומר את זה:", "שמרתי:", "רושם את זה עכשיו:", "נשמר:", "אוסיף לזיכרון:"], ["בסדר?", "נכון?", "תודה!"]),
    "fi": (
        ["Tallennan tämän:", "Tallensin:", "Lisään muistiin:", "Tallennettu:", "Kirjaan tämän ylös:"],
        ["Sopiiko?", "Oikein?", "Kiitos!"],
    ),
    "hu": (
        ["Elmentem:", "Feljegyzem:", "Hozzáadom a memóriához:", "Elmentve:", "Rögzítettem:"],
        ["Jó így?", "Rendben?", "Köszi!"],
    ),
    "ro": (
        ["Salvez asta:", "Am notat:", "Adaug în memorie:", "Salvat:", "O să notez asta:"],
        ["Bine?", "Corect?", "Mersi!"],
    ),
    "id": (
        ["Aku simpan ya:", "Saya catat:", "Sudah kusimpan:", "Disimpan:", "Saya tambahkan ke memori:"],
        ["Oke?", "Benar?", "Terima kasih!"],
    ),
    "ms": (["Saya simpan:", "Saya catatkan:", "Dah simpan:", "Disimpan:"], ["Okey?", "Betul?", "Terima kasih!"]),
    "sw": (
        ["Ninahifadhi:", "Nimehifadhi:", "Nitaongeza kwenye kumbukumbu:", "Imehifadhiwa:"],
        ["Sawa?", "Sahihi?", "Asante!"],
    ),
    "th": (["บันทึกไว้แล้ว:", "ขอบันทึกนะครับ:", "จะบันทึกไว้:", "กำลังบันทึก:"], ["โอเคไหม?", "ถูกต้องไหม?", "ขอบคุณครับ!"]),
    "ko": (
        ["저장할게요:", "기록해 둘게요:", "저장했습니다:", "메모에 추가합니다:"],
        ["괜찮아요?", "맞나요?", "감사합니다!"],
    ),
    "ja": (
        ["保存します：", "メモしておきます：", "記録しました：", "追加しますね："],
        ["大丈夫ですか？", "合っていますか？", "ありがとうございます！"],
    ),
    "zh": (["我来记下：", "已保存：", "我会把这个记下来：", "帮你记下了："], ["对吗？", "可以吗？", "谢谢！"]),
    "bn": (["আমি এটা সেভ করছি:", "নোট করে রাখলাম:", "সেভ করেছি:"], ["ঠিক আছে?", "সঠিক?", "ধন্যবাদ!"]),
    "nl": (
        ["Ik sla het op:", "Opgeslagen:", "Ik noteer het even:", "Toegevoegd:"],
        ["Goed zo?", "Klopt dat?", "Bedankt!"],
    ),
    "sv": (["Jag sparar det:", "Sparat:", "Jag lägger till det:", "Noterat:"], ["Okej?", "Stämmer det?", "Tack!"]),
    "da": (["Jeg gemmer det:", "Gemt:", "Jeg noterer det:", "Noteret:"], ["Okay?", "Passer det?", "Tak!"]),
    "nb": (["Jeg lagrer det:", "Lagret:", "Jeg noterer det:", "Notert:"], ["Ok?", "Stemmer det?", "Takk!"]),
    "ca": (["Ho deso:", "Desat:", "Ho anoto:", "Ho he guardat:"], ["D'acord?", "Correcte?", "Gràcies!"]),
    "en": (
        ["Saving this now:", "I'll note that:", "Noted:", "I've added it:", "Adding to memory:"],
        ["OK?", "Look right?", "Thanks!"],
    ),
    "es": (["Lo guardo:", "Anotado:", "Voy a guardarlo:", "Ya lo guardé:"], ["¿Vale?", "¿Correcto?", "¡Gracias!"]),
    "fr": (
        ["Je l'enregistre :", "C'est noté :", "J'ajoute ça à ta fiche :", "Enregistré :"],
        ["Ça te va ?", "C'est bon ?", "Merci !"],
    ),
    "de": (
        ["Ich speichere das:", "Notiert:", "Ich trage das ein:", "Gespeichert:"],
        ["Passt das?", "Stimmt so?", "Danke!"],
    ),
    "pt": (
        ["Vou salvar isso:", "Anotado:", "Já salvei:", "Estou salvando:"],
        ["Tudo certo?", "Está correto?", "Obrigado!"],
    ),
    "it": (["Lo salvo:", "Annotato:", "Aggiungo alla memoria:", "L'ho salvato:"], ["Va bene?", "Giusto?", "Grazie!"]),
    "ru": (["Сохраняю:", "Записываю:", "Я сохранил это:", "Записано:"], ["Хорошо?", "Верно?", "Спасибо!"]),
}

# Per language: leads that hedge, wish, propose or label the block, and checks or leave asked after them
SHOWN: dict[str, tuple[list[str], list[str]]] = {
    "el": (
        [
            "Θα το αποθήκευα έτσι:",
            "Παρακάτω:",
            "Κάτω:",
            "Πάνω:",
            "Μέσω του εργαλείου:",
            "Ένα παράδειγμα:",
            "Προτείνω να γράψω:",
            "Σκέφτομαι κάτι τέτοιο:",
            "Αν θέλεις, γράφω:",
            "Θέλω να γράψω:",
            "Μπορώ να γράψω:",
            "Το προσχέδιο:",
        ],
        ["Εντάξει;", "Σωστό;", "Να το αποθηκεύσω;"],
    ),
    "tr": (
        [
            "Şöyle kaydedebilirim:",
            "Not olarak şunu eklemek istiyorum:",
            "Örnek:",
            "Taslak:",
            "Eklemeyi düşünüyorum:",
            "Şunu önerebilirim:",
        ],
        ["Tamam mı?", "Doğru mu?", "Kaydedeyim mi?"],
    ),
    "cs": (
        [
            "Takto bych to uložil:",
            "Navrhuji zapsat:",
            "Například:",
            "Mohl bych to uložit takhle:",
            "Návrh záznamu:",
            "Kdybys chtěl, uložím:",
            "Teď si představ tohle:",
        ],
        ["Dobře?", "Sedí to?", "Mám to uložit?"],
    ),
    "pl": (
        [
            "Mógłbym zapisać tak:",
            "Na przykład:",
            "Szkic:",
            "Proponuję tak:",
            "Program:",
            "Diagram:",
            "Jeśli chcesz, dodam to:",
            "Teraz przykład:",
        ],
        ["Dobrze?", "Zgadza się?", "Zapisać?"],
    ),
    "uk": (
        [
            "Я б зберіг так:",
            "Наприклад:",
            "Чернетка:",
            "Пропоную до профілю:",
            "Можу додати до пам'яті:",
            "Якщо хочеш, додаю до пам'яті:",
        ],
        ["Так?", "Правильно?", "Зберегти?"],
    ),
    "ru": (
        [
            "Я бы сохранил так:",
            "Например:",
            "Черновик:",
            "Предлагаю в профиль:",
            "Могу добавить в память:",
            "Если хочешь, добавляю в профиль:",
            "Рекомендую в заметки:",
        ],
        ["Хорошо?", "Верно?", "Сохранить?"],
    ),
    "hi": (
        [
            "मैं इसे ऐसे सहेज सकता हूँ:",
            "मैं यह जोड़ना चाहता हूँ:",
            "उदाहरण:",
            "अगर आप चाहें तो मैं जोड़ देता हूँ:",
            "ड्राफ्ट:",
            "आपने मुझे यह दिया:",
        ],
        ["ठीक है?", "सही है?", "सहेज दूँ?"],
    ),
    "bn": (
        ["আমি এভাবে সেভ করতে পারি:", "উদাহরণ:", "খসড়া:", "যদি চান, যোগ করলাম:", "আমি এটা রাখতে চাই:"],
        ["ঠিক আছে?", "সঠিক?", "সেভ করব?"],
    ),
    "fi": (
        [
            "Tallentaisin näin:",
            "Esimerkiksi:",
            "Luonnos:",
            "Voisin lisätä:",
            "Ehdotan:",
            "Jos haluat, lisään muistiin:",
        ],
        ["Sopiiko?", "Oikein?", "Tallennanko?"],
    ),
    "hu": (
        ["Így menteném:", "Például:", "Vázlat:", "Javaslom:", "Üzenetem:", "Jegyzetem:", "Ha szeretnéd, elmentem:"],
        ["Jó így?", "Rendben?", "Mentsem?"],
    ),
    "ro": (
        ["Aș salva așa:", "De exemplu:", "Ciornă:", "Propun:", "Dacă vrei, adaug în memorie:", "Aș putea adăuga:"],
        ["Bine?", "Corect?", "Salvez?"],
    ),
    "ms": (
        ["Saya boleh simpan begini:", "Contoh:", "Draf:", "Kalau nak, dah simpan:", "Cadangan:"],
        ["Okey?", "Betul?", "Boleh simpan?"],
    ),
    "sw": (
        ["Ningeongeza hivi:", "Kwa mfano:", "Rasimu:", "Napendekeza:", "Ungependa niongeze:"],
        ["Sawa?", "Sahihi?", "Nihifadhi?"],
    ),
    "fr": (
        [
            "Je pourrais l'enregistrer ainsi :",
            "Par exemple :",
            "Brouillon :",
            "Je propose :",
            "Si tu veux, j'ajoute ça à ta fiche :",
            "Voici ce que j'ajouterais :",
        ],
        ["Ça te va ?", "C'est bon ?", "Je l'enregistre ?"],
    ),
    "it": (
        [
            "Potrei salvarlo così:",
            "Per esempio:",
            "Bozza:",
            "Propongo:",
            "Se vuoi, aggiungo alla memoria:",
            "Aggiungerei:",
        ],
        ["Va bene?", "Giusto?", "Lo salvo?"],
    ),
    "es": (
        ["Podría guardarlo así:", "Por ejemplo:", "Borrador:", "Propongo:", "Si quieres, añado esto:", "Añadiría:"],
        ["¿Vale?", "¿Correcto?", "¿Lo guardo?"],
    ),
    "pt": (
        [
            "Eu poderia salvar assim:",
            "Por exemplo:",
            "Rascunho:",
            "Proponho:",
            "Se quiser, adiciono isto:",
            "Adicionaria:",
        ],
        ["Tudo certo?", "Está correto?", "Salvo?"],
    ),
    "ca": (
        ["Ho podria desar així:", "Per exemple:", "Esborrany:", "Proposo:", "Si vols, afegeixo això:"],
        ["D'acord?", "Correcte?", "Ho deso?"],
    ),
    "ar": (
        [
            "يمكنني حفظه هكذا:",
            "مثال:",
            "مسودة:",
            "أقترح:",
            "إذا أردت، حفظت ذلك:",
            "أود أن أضيف:",
            "هذا ما سأحفظه لو وافقت:",
        ],
        ["تمام؟", "صحيح؟", "هل أحفظه؟"],
    ),
    "fa": (
        [
            "می‌توانم این‌طور ذخیره کنم:",
            "مثال:",
            "پیش‌نویس:",
            "پیشنهاد می‌کنم:",
            "اگر بخواهی، ذخیره می‌کنم:",
            "می‌خواهم اضافه کنم:",
        ],
        ["خوبه؟", "درسته؟", "ذخیره کنم؟"],
    ),
    "en": (
        [
            "I could add it like this:",
            "For example:",
            "Draft:",
            "I'd add:",
            "If you want, I'm adding this:",
            "I'll show you what I'd save:",
            "Suggested entry:",
        ],
        ["OK?", "Look right?", "Shall I save it?"],
    ),
}


def performed_replies() -> list[tuple[str, str, str]]:
    """(language, lead, follow-up) for every performed reply: each lead alone, and with each follow-up."""
    return [(lang, lead, fu) for lang, (leads, fus) in PERFORMED.items() for lead in leads for fu in ["", *fus]]


def shown_replies() -> list[tuple[str, str, str]]:
    """(language, lead, question) for every shown reply."""
    return [(lang, lead, q) for lang, (leads, qs) in SHOWN.items() for lead in leads for q in qs]


def reply(lead: str, after: str) -> str:
    return f"{lead}\n{BLOCK}" + (f"\n{after}" if after else "")


def main() -> None:
    verbose = "-v" in sys.argv[1:]
    tools = load_tools()
    differ = 0
    for side, replies, table, runs_wanted in (
        ("performed", performed_replies(), PERFORMED, 1),
        ("shown", shown_replies(), SHOWN, 0),
    ):
        wrong: dict[str, int] = {}
        for lang, lead, after in replies:
            text = reply(lead, after)
            calls = parse_once(text, tools)
            differ += parse_streamed(text, tools, 16) != calls
            if len(calls) != runs_wanted:
                wrong[lang] = wrong.get(lang, 0) + 1
                if verbose:
                    print(f"  {side} {lang}: {lead!r} / {after!r} ran {len(calls)}")
        what = "lost" if runs_wanted else "run"
        print(f"{side} replies {what}: {sum(wrong.values())} of {len(replies)} ({len(table)} languages)")
        print("  by language: " + (", ".join(f"{k} {v}" for k, v in sorted(wrong.items())) or "none"))
    print(f"16-char streams that differ from one-shot: {differ}")


if __name__ == "__main__":
    main()
