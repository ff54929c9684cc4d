"""What would have been legal (a finding's `legal`) in each game: English kept for programs, every
sentence of it shown in Chinese (issue 22)."""

import re

import orjson
import pytest

from referee.replay import check_record

SAMPLES = [
    "samples/guandan/disputed-illegal-follow.json",
    "samples/gouji/disputed-non-duellist-plays-into-duel.json",
    "samples/gouji/disputed-black-joker-beaten-without-red-joker.json",
    "samples/gandengyan/disputed-two-ranks-higher.json",
]
ENGLISH_WORD = re.compile(r"(?<![A-Za-z])(?!pagat\b)[A-Za-z]{2,}")  # pagat: the source the Gou Ji page cites


@pytest.mark.parametrize("path", SAMPLES)
def test_what_was_legal_reads_in_chinese_and_stays_english_in_the_plain_report(path):
    with open(path, "rb") as record:
        report = check_record(orjson.loads(record.read()))
    stopped = [f for f in report.findings if f.legal]
    assert stopped
    for finding in stopped:
        english, chinese = finding.as_dict()["legal"], finding.as_dict("zh")["legal"]
        assert orjson.loads(orjson.dumps(english))["may"] == str(english["may"]) != chinese["may"]
        for key, sentence in chinese.items():
            if isinstance(sentence, str) and key in ("may", "mode", "owed", "ruling"):
                assert not ENGLISH_WORD.search(sentence.replace("legal.plays", "")), (key, sentence)  # a key
