"""The Romanian texts speak to the reader in one register: the formal "dumneavoastră".

"Salvați", "Alegeți", "Scrieți", "încercați din nou", "după ce salvați": never "salvează",
"alege", "scrie", "încearcă", "salvezi". The checks below look for the forms of the
informal second person singular in every translation (scorekeeper/translations/GLOSSARY.md
states the register).
"""

from __future__ import annotations

import re

import pytest

from .catalogue import romanian

#: Verbs the app tells the reader to do something with, in the informal imperative. A text
#: (or a sentence, or what follows "Da, " / "Nu, ") that starts with one is informal: the
#: formal imperative ends in -ți ("Salvați", "Începeți"). (As a third person they would not
#: open a sentence here: "Împarte Ana" is written with "Împarte", which is not listed.)
INFORMAL_IMPERATIVES = frozenset(
    {
        "adaugă",
        "alege",
        "anulează",
        "apasă",
        "arată",
        "bifează",
        "completează",
        "corectează",
        "descarcă",
        "deschide",
        "dă",
        "exportă",
        "fă",
        "folosește",
        "golește",
        "ieși",
        "importă",
        "introdu",
        "intră",
        "încearcă",
        "începe",
        "încheie",
        "pornește",
        "păstrează",
        "redenumește",
        "repetă",
        "rulează",
        "salvează",
        "sari",
        "scoate",
        "scrie",
        "selectează",
        "setează",
        "șterge",
        "tastează",
        "tipărește",
        "ține",
        "unește",
        "verifică",
        "vezi",
        "uită",
    }
)
#: The informal second person singular anywhere in a sentence: its pronouns and possessives
#: ("tu", "te", "ție", "tău"...) and the verbs the app would use ("ai", "poți", "vrei").
INFORMAL_WORDS = frozenset(
    {
        "tu",
        "te",
        "ți",
        "îți",
        "ție",
        "tine",
        "tău",
        "ta",
        "tăi",
        "tale",
        "ai",
        "poți",
        "vrei",
        "ești",
        "știi",
        "trebuie-să-te",
    }
)
#: The present tense, second person singular ("salvezi", "ștergi", "găsești", "unești").
INFORMAL_ENDINGS = re.compile(r"\w{2,}(?:ezi|ești|ăști)$")
#: Verbs whose present second person singular ends otherwise: "ștergi", "alegi", "scrii".
INFORMAL_PRESENT = frozenset(
    {"ștergi", "alegi", "scrii", "faci", "iei", "pui", "vezi", "crezi", "începi", "încerci"}
)
#: An informal imperative with a pronoun after it: "Exportă-o", "păstreaz-o", "Uită-te"
#: (the word before is kept, to tell a past participle: "ați scris-o" is formal).
INFORMAL_WITH_PRONOUN = re.compile(r"(?:(\w+)\s+)?(\w{3,})-(o|l|i|le|te|ne|mi)\b")
AUXILIARIES = frozenset({"am", "ai", "a", "ați", "au", "ar", "aș"})
#: Words that take a hyphen and are no verb: "într-o", "dintr-o", "printr-un".
NOT_VERBS = frozenset({"într", "dintr", "printr", "câte"})
#: Where an order may start: the start of the text, after . : ; ( ? ! or a comma, and after
#: "sau", "și", "apoi" ("rulează X sau setează Y"): an order there is the reader's.
SENTENCE_START = re.compile(r"(?:^|[.:;?!(,]\s*|\b(?:sau|și|apoi)\s+)(\w+)")
WORD = re.compile(r"[^\W\d_]+")
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|\{\w+\}|„[^”]*”|`[^`]*`")


def informal_forms(text: str) -> list[str]:
    """The informal forms in one Romanian text (placeholders and quoted keys set aside)."""
    plain = PLACEHOLDERS.sub(" ", text)
    found = [word for word in SENTENCE_START.findall(plain) if word.lower() in INFORMAL_IMPERATIVES]
    for word in WORD.findall(plain):
        lower = word.lower()
        if lower in INFORMAL_WORDS or lower in INFORMAL_PRESENT or INFORMAL_ENDINGS.match(lower):
            found.append(word)
    for before, verb, pronoun in INFORMAL_WITH_PRONOUN.findall(plain):
        # "păstrați-o", "exportați-o" are formal; "ați scris-o" is a past tense.
        if (
            not verb.endswith("ți")
            and before.lower() not in AUXILIARIES
            and verb.lower() not in NOT_VERBS
        ):
            found.append(f"{verb}-{pronoun}")
    return found


def translations() -> list[tuple[str, str]]:
    out = []
    for message in romanian():
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        out += [(msgid, s) for s in strings]
    return out


@pytest.mark.parametrize(
    ("text", "informal"),
    [
        ("Salvează mâna", ["Salvează"]),
        ("Toate scorurile se recalculează după ce salvezi.", ["salvezi"]),
        ("Exportă-o mai întâi", ["Exportă", "Exportă-o"]),
        ("Ceva n-a mers; nu s-a pierdut nimic. Încearcă din nou.", ["Încearcă"]),
        ("Nu, păstreaz-o", ["păstreaz-o"]),
        ("Ștergi partida 3?", ["Ștergi"]),
        ("Dacă vrei, alege altul.", ["vrei", "alege"]),
        ("Intră ca să înregistrezi mâini", ["Intră", "înregistrezi"]),
        (
            "Ca să se ceară parola, rulează `scorekeeper set-password` sau setează PAROLA.",
            ["rulează", "setează"],
        ),
        ("eroare: alege o parolă", ["alege"]),
        ("Partida ta", ["ta"]),
    ],
)
def test_the_register_check_finds_the_informal_forms(text: str, informal: list[str]) -> None:
    assert sorted(informal_forms(text)) == sorted(informal)


@pytest.mark.parametrize(
    "text",
    [
        "Salvați mâna",
        "Toate scorurile se recalculează după ce salvați.",
        "Exportați-o mai întâi",
        "Nu, păstrați-o",
        "Împarte Ana.",
        "%(dealer)s împarte mâna 3.",
        "Alegeți cine a câștigat licitația.",
        "Dacă ați scris-o de mână, verificați-o și încercați din nou.",
        "cheie necunoscută „{key}”",
        "Nimeni n-a jucat încă; s-a salvat.",
        "Reîmparte același împărțitor",
        "Mic merge la jucătorul care îl câștigă într-o levată",
        "Ca să se ceară parola, rulați `scorekeeper set-password` sau setați PAROLA.",
        "O puteți părăsi și reveni: legătura rămâne aceeași.",
    ],
)
def test_the_register_check_passes_the_formal_forms(text: str) -> None:
    assert informal_forms(text) == []


def test_every_romanian_text_speaks_in_the_formal_register() -> None:
    informal = [
        (msgid, text, forms) for msgid, text in translations() if (forms := informal_forms(text))
    ]
    assert informal == [], "use the formal register (see translations/GLOSSARY.md)"


def test_the_catalogue_does_speak_to_the_reader_formally() -> None:
    """The check above is not passing on an empty or reader-less catalogue: the formal
    imperative is there, many times."""
    formal = [t for _, t in translations() if re.search(r"\b\w+ți\b", t)]
    assert len(formal) > 50
    assert any(t.startswith("Salvați") for _, t in translations())
