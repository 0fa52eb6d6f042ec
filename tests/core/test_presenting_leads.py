"""A block under a label or a presenting lead, then a check question, is shown for approval, not
made: "Output:" / [block] / "OK?" runs nothing, in English and in the other languages.

A fixed battery, written apart from the rules and from the corpus, that every round on the
words around a block must pass: the rules that let a check question after a lead naming the
writer's step ("I'm saving this:" / [block] / "OK?") run the block must not take a label or a
presenting lead for such a step."""

from __future__ import annotations

import json

import pytest

from letta_tool_emulation import parse_tool_calls

from .corpus import load_tools

TOOLS = load_tools()
BLOCK = (
    "TOOL_CALL_START\n"
    + json.dumps({"function": "core_memory_append", "params": {"label": "human", "content": "Likes tea"}})
    + "\nTOOL_CALL_END"
)

_LABELS = [
    "Draft",
    "Format",
    "Output",
    "Result",
    "Request",
    "Payload",
    "Snippet",
    "Script",
    "Prompt",
    "Object",
    "Item",
    "Problem",
    "System",
    "Proposal",
    "Test",
    "Attempt",
    "Plan",
    "Entry",
    "Note",
    "Update",
    "Change",
    "Edit",
    "Diff",
    "Call",
    "Block",
    "Text",
    "Content",
    "Input",
    "Sample",
    "Memo",
    "Record",
    "Event",
    "Target",
    "Context",
    "Contact",
    "Account",
    "Budget",
    "Report",
    "Post",
    "Comment",
    "Element",
    "Statement",
    "Step",
    "Program",
    "Form",
    "Custom",
    "Bottom",
    "Random",
    "Token",
    "Fact",
    "Detail",
    "Summary",
    "Message",
    "Payment",
    "Receipt",
    "Ticket",
    "Settings",
    "Layout",
    "Patch",
    "Commit",
    "Insert",
    "Append",
    "Replace",
    "Preview",
    "Display",
    "Directory",
    "Digest",
    "Terminal",
    "Terms",
    "Dictionary",
    "Dialog",
    "Diagram",
]
_ENGLISH_LEADS = [
    *(label + ":" for label in _LABELS),
    *["System prompt:", "Problem statement:", "Item one:", "From the docs:", "Bottom line:", "Test call:"],
    *["Output below:", "Script to run:", "Result preview:", "Draft entry:", "Proposed entry:", "Memory update:"],
    *["Entry to add:", "New note:", "Tool call:", "Suggested change:", "Here it is:", "The entry:", "Dinner plan:"],
    *["Showing the entry:", "Proposing the following:", "Suggesting this:", "Drafting the note:"],
    *["Presenting the update:", "Previewing the change:", "Considering this:", "Sketching the call:"],
    *["Imagining the entry:", "Testing the format:", "Describing the call:", "Explaining the format:"],
    *["Illustrating it:", "Quoting the entry:", "Recalling the earlier call:", "Repeating your block:"],
    # (a step of the writer's that is showing or proposing the block, not making it)
    *["I'll show you the entry:", "I'm proposing this:", "I'm suggesting this entry:", "Let me show you:"],
]
_ENGLISH_CHECKS = ["OK?", "Good?", "Right?", "Look OK?", "Sound good?"]
_OTHER_LEADS = [
    *["Voici l'entrée :", "Hier ist der Eintrag:", "Aquí está la entrada:", "Ecco la voce:", "Eis a entrada:"],
    *["Вот запись:", "这是条目：", "これが項目です：", "Oto wpis:", "Dit is de invoer:", "İşte kayıt:", "Đây là mục:"],
    *["Ini entrinya:", "Tässä merkintä:", "Här är posten:", "Her er posten:", "Iată intrarea:", "Itt a bejegyzés:"],
    *["Ecco la bozza:", "Aqui está o rascunho:", "Návrh:", "Návrh záznamu:", "Szkic:", "Utkast:", "Udkast:"],
    *["Черновик:", "Черновик записи:", "Пример:", "Чернетка:", "Taslak:", "Örnek kayıt:", "Draf:", "Contoh:"],
    *["Bản nháp:", "Ví dụ:", "Luonnos:", "Vázlat:", "Ciornă:", "Exemplu:", "Esborrany:", "Παράδειγμα:", "טיוטה:"],
    *["مسودة:", "मसौदा:", "খসড়া:", "Rasimu:", "草稿：", "下書き：", "초안:", "Voorbeeld:", "Eksempel:", "Exempel:"],
    *["Δείχνω:", "Προτείνω:", "Παραθέτω την εγγραφή:", "Показываю в профиле:", "Рекомендую в профиль:"],
    *["Ukážu ti to:", "Θέλω να γράψω:", "Kdybys chtěl, uložím:", "मैं यह जोड़ना चाहता हूँ:", "Javaslom:"],
    *["أود أن أضيف:", "می‌خواهم اضافه کنم:"],
]
_OTHER_CHECKS = [
    *["OK?", "Dobře?", "Ок?", "Tamam mı?", "Được không?", "Sopiiko?", "Jó?", "Bine?", "D'acord?", "Εντάξει;"],
    *["בסדר?", "ठीक है?", "ঠিক আছে?", "โอเคไหม?", "Sawa?", "好吗？", "いいですか？", "Goed zo?", "Okej?"],
    *["괜찮아요?", "어때요?", "이대로 괜찮나요?", "تمام؟", "خوبه؟"],
]


@pytest.mark.parametrize(
    ("leads", "checks"), [(_ENGLISH_LEADS, _ENGLISH_CHECKS), (_OTHER_LEADS, _OTHER_CHECKS)], ids=["en", "other"]
)
def test_a_label_and_a_check_run_nothing(leads: list[str], checks: list[str]) -> None:
    ran = [
        f"{lead} / {check}"
        for lead in leads
        for check in checks
        if parse_tool_calls(f"{lead}\n{BLOCK}\n{check}", TOOLS).tool_calls
    ]
    assert ran == []


def test_a_lead_naming_the_step_and_a_check_run_the_block() -> None:
    # (the other side: the same check under a lead that makes the step runs it)
    leads = [
        "I'm saving this:",
        "Zapisuję to:",
        "Jag sparar det här:",
        "Ninahifadhi hili:",
        "我已经记下了：",
        "저장해 둘게요:",
        "Αποθηκεύω:",
        "Hned to uložím:",
        "Dodam to do pamięci:",
        "Додаю до пам'яті:",
        "J'ajoute ça à ta fiche :",
        "Aggiungo alla memoria:",
        "Rögzítettem:",
        "Desat:",
        "حفظت ذلك:",
    ]
    ran = [lead for lead in leads if len(parse_tool_calls(f"{lead}\n{BLOCK}\nOK?", TOOLS).tool_calls) == 1]
    assert ran == leads


def test_a_hedged_wished_or_proposed_lead_and_a_check_run_nothing() -> None:
    # (benchmarks/lead_checks.py: 405 such replies in 21 languages; it also prints the performed side)
    from benchmarks.lead_checks import reply, shown_replies

    ran = [
        f"{lang}: {lead} / {q}"
        for lang, lead, q in shown_replies()
        if parse_tool_calls(reply(lead, q), TOOLS).tool_calls
    ]
    assert ran == []
