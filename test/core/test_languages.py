"""Prompt languages as data files: checked when loaded, English byte for byte the paper's
prompt, every language the paper's structure, a user's own file, per-language constraints."""

import json
import shutil

import numpy as np
import pytest

from geobias.core.engine.cache import SurveyCache
from geobias.core.engine.chat import ANSWER_GBNF, ANSWER_REGEX, ChatClient, Endpoint
from geobias.core.geo.gazetteer import Gazetteer
from geobias.core.survey import languages as lg
from geobias.core.survey.numerals import SCRIPTS
from geobias.core.survey.prompts import PRESETS, build_prompts
from geobias.core.survey.topics import TOPICS

REQUIRED = {"ar", "zh", "en", "fr", "ru", "es", "hi", "pt", "sw", "id"}


@pytest.fixture(scope="module")
def gaz():
    return Gazetteer.load()


@pytest.fixture(scope="module")
def points(gaz):
    """Real places of the bundled gazetteer (nearby lists full) and uniform points on land and
    sea (short or empty lists), 400 in all."""
    rng = np.random.default_rng(26)
    pick = rng.choice(len(gaz), 200, replace=False)
    lon = np.concatenate([gaz.lon[pick] + rng.normal(0, 0.05, 200), rng.uniform(-180, 180, 200)])
    lat = np.concatenate([gaz.lat[pick] + rng.normal(0, 0.05, 200), rng.uniform(-60, 75, 200)])
    return np.clip(lon, -180, 180), np.clip(lat, -90, 90)


def test_the_bundled_languages_load():
    langs = lg.load_languages()
    assert REQUIRED <= set(langs)
    assert lg.available()[0] == "en"
    for code, lang in langs.items():
        assert lang.code == code and set(lang.topics) == {t.name for t in TOPICS}
        assert lang.translation["method"]


def test_english_is_byte_for_byte_the_paper_prompt(gaz, points):
    en = lg.get_language("en")
    assert en.plain and en.parser is None
    for name, preset in PRESETS.items():
        assert en.template(preset).text == preset.text and en.template(name).text == preset.text
    lon, lat = points
    for topic in ("Infant Mortality Rate", "population density", "My own topic"):
        for name in ("geollm", "short_address", "no_nearby"):
            want = build_prompts(lon, lat, topic, gaz, PRESETS[name])
            assert en.build_prompts(lon, lat, topic, gaz, PRESETS[name]) == want
            # the rewriting path other languages take leaves English as it was too
            assert en._build(lon, lat, topic, gaz, en.template(name)) == want
    # the cache key is the request: an English request body is the one sent before languages
    ep = Endpoint("http://127.0.0.1:9/v1", "m", constraint="grammar")
    client = ChatClient(ep)
    prompt = build_prompts(lon[:1], lat[:1], "Infant Mortality Rate", gaz)[0]
    assert client.request_body(prompt, en) == client.request_body(prompt)
    assert en.gbnf == ANSWER_GBNF and en.regex == ANSWER_REGEX


@pytest.mark.parametrize("code", sorted(REQUIRED))
def test_every_language_renders_the_paper_structure(code, gaz, points):
    lang = lg.get_language(code)
    lon, lat = points[0][:40], points[1][:40]
    addresses, nearby = gaz.describe(lon, lat)
    prompts = lang.build_prompts(lon, lat, "Average Intelligence of Residents", gaz)
    s = lang.sections
    for p, x, y, a, t in zip(prompts, lon, lat, addresses, nearby):
        assert p.startswith(lang.prefix) and lang.prefix.count("\n") == 5
        body = p[len(lang.prefix) :].split("\n\n")
        assert len(body) == 4  # coordinates, address, nearby places, question
        coords = s["coordinates"].format(
            lat=lg._Number(y, lang.digits, lang.decimal),
            lon=lg._Number(x, lang.digits, lang.decimal),
        )
        assert body[0] == coords and lang.number(y, ".5f") in coords
        assert body[1] == s["address"].format(address=a) and a in body[1]
        places = [line.split(": ", 1)[1] for line in t.splitlines()]
        assert all(name in body[2] for name in places)
        assert body[2].count("\n") == s["nearby"].count("\n") + len(places)
        assert body[3] == s["question"].format(topic=lang.topics[TOPICS[9].name])
        assert lang.scale in body[3]
        for line in lang.localise_nearby(t).splitlines():
            assert lang.km in line and any(d in line for d in lang.directions.values())
        if lang.digits != SCRIPTS["latin"]:
            assert not any(ch in "0123456789" for ch in body[0] + body[3])
    # the ablations drop their section, as the English presets do
    one = {
        n: lang.build_prompts(lon[:1], lat[:1], "Population Density", gaz, n)[0] for n in PRESETS
    }
    assert one["no_coordinates"].count("\n\n") == one["geollm"].count("\n\n") - 1
    assert lang.number(lat[0], ".5f") not in one["no_coordinates"]
    assert addresses[0] not in one["no_address"]
    assert one["short_address"] != one["geollm"]


def test_numbers_topics_and_grammar_follow_the_file():
    fr, ar, zh, hi = (lg.get_language(c) for c in ("fr", "ar", "zh", "hi"))
    assert fr.number(-33.925839, ".5f") == "-33,92584" and ar.number(9.9) == "٩٫٩"
    assert fr.topic("infant mortality rate") == "Taux de mortalité infantile"
    assert fr.topic("Rainfall in May") == "Rainfall in May"  # a custom topic stays as typed
    assert zh.gbnf == 'root ::= "我的答案是" [0-9] "." [0-9] "。"'
    assert ar.gbnf == 'root ::= "إجابتي هي " [٠-٩] "٫" [٠-٩] "."'
    assert hi.gbnf == 'root ::= "मेरा उत्तर है " [0-9] "." [0-9] "।"'
    import re

    for lang in lg.load_languages().values():
        example = lang.answer.replace("{rating}", lang.number(7.5))
        assert re.fullmatch(lang.regex, example), lang.code
    ep = Endpoint("http://127.0.0.1:9/v1", "m", constraint="regex")
    assert ChatClient(ep).request_body("p", fr)["structured_outputs"] == {"regex": fr.regex}


def _fr():
    return json.loads((lg.BUNDLED_DIR / "fr.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda d: d.pop("topics"), r'missing keys "topics"'),
        (lambda d: d.update(colour="red"), r'unknown keys "colour"'),
        (lambda d: d["topics"].pop("Solar Neutrino Flux"), "'topics' lacks"),
        (lambda d: d["prompt"].update(coordinates="({lat:.5f})"), r"prompt.coordinates must hold"),
        (lambda d: d["prompt"].update(question="{topic} {place}"), "prompt.question must hold"),
        (lambda d: d["prompt"].update(address="Adresse : {address"), "malformed"),
        (lambda d: d["prompt"].update(scale="de 0.0 à 9.9"), "prompt.question must contain"),
        (lambda d: d["prompt"].update(scale="à 9,9"), "must write 0.0 as '0,0'"),
        (lambda d: d["answer"].update(format="Ma réponse : {rating}."), "must show the answer"),
        (lambda d: d["answer"].update(format="{rating}."), "after the answer's first words"),
        (lambda d: d["numbers"].update(digits="0123"), "numbers.digits must be"),
        (lambda d: d["numbers"].update(decimal="ab"), "numbers.decimal must be"),
        (lambda d: d["directions"].pop("North"), "'directions' lacks"),
        (lambda d: d.update(nearby_line="{distance} {name}"), "nearby_line must hold"),
        (lambda d: d.update(nearby_line="{distance {name}"), "nearby_line is a malformed"),
        (lambda d: d["numbers"].update(digits=list("0123456789")), "numbers.digits must be"),
        (lambda d: d.update(spoken="fr"), "'spoken' must be a list"),
        (lambda d: d.update(code="French"), "is not a language tag"),
        (lambda d: d["prompt"]["prefix"].pop(), "three sentences"),
        (lambda d: d.update(schema=2), "schema must be 1"),
    ],
)
def test_a_bad_file_is_refused_with_the_field_named(tmp_path, change, match):
    data = _fr()
    change(data)
    path = tmp_path / f"{data.get('code', 'fr') if isinstance(data.get('code'), str) else 'x'}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(lg.LanguageError, match=match) as e:
        lg.load_language(path)
    assert str(path) in str(e.value)


def test_file_name_and_json_errors(tmp_path):
    p = tmp_path / "de.json"
    p.write_text(json.dumps(_fr(), ensure_ascii=False), encoding="utf-8")
    with pytest.raises(lg.LanguageError, match="must be fr.json"):
        lg.load_language(p)
    p.write_text("{not json", encoding="utf-8")
    with pytest.raises(lg.LanguageError, match="not valid JSON"):
        lg.load_language(p)
    with pytest.raises(KeyError, match="available"):
        lg.get_language("tlh")


def test_a_user_adds_a_language_by_adding_a_file(tmp_path, gaz):
    data = _fr()
    data.update(code="fr-ca", name="French (Canada)")
    data["place_names"] = {"South Africa": "Afrique du Sud", "Gardens": "Les Jardins"}
    (tmp_path / "fr-ca.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert "fr-ca" not in lg.available()
    assert "fr-ca" in lg.available([tmp_path])
    lang = lg.get_language("fr-ca", [tmp_path])
    (tmp_path / "xx.json").write_text("{}", encoding="utf-8")  # a broken file beside it
    errors = []
    assert "fr-ca" in lg.load_languages([tmp_path], errors) and "xx.json" in errors[0]
    with pytest.raises(lg.LanguageError, match="missing keys"):
        lg.load_languages([tmp_path])
    (tmp_path / "xx.json").unlink()
    text = "3.2 km South-West: Gardens\n10.0 km North-East: Goodwood\n"
    assert lang.localise_nearby(text) == (
        "3,2 km au sud-ouest : Les Jardins\n10,0 km au nord-est : Goodwood\n"
    )
    assert lang.localise_address("Cape Town, Western Cape, South Africa") == (
        "Cape Town, Western Cape, Afrique du Sud"
    )
    assert lang.localise_nearby("my own line\n") == "my own line\n"
    # a folder added once is searched from then on (the QGIS side adds the user's folder)
    other = tmp_path / "more"
    other.mkdir()
    shutil.copy(tmp_path / "fr-ca.json", other / "fr-ca.json")
    lg.add_folder(other)
    try:
        assert lg.get_language("fr-ca").name == "French (Canada)"
    finally:
        lg._extra_folders.remove(other)


def test_languages_have_their_own_cache_keys_and_english_keeps_its_own(tmp_path, gaz):
    cache = SurveyCache(str(tmp_path / "c.sqlite"))
    ep = Endpoint("http://127.0.0.1:9/v1", "m", constraint="grammar")
    client = ChatClient(ep)
    keys = {}
    for code in sorted(REQUIRED):
        lang = lg.get_language(code)
        prompt = lang.build_prompts([3.38], [6.52], "Infant Mortality Rate", gaz)[0]
        keys[code] = cache.key(ep, client.request_body(prompt, lang))
    assert len(set(keys.values())) == len(REQUIRED)
    english = build_prompts([3.38], [6.52], "Infant Mortality Rate", gaz)[0]
    assert keys["en"] == cache.key(ep, client.request_body(english))
