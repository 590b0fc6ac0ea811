"""The data-file reader every game uses: each failure names the file and what is wrong."""

import pytest

from easel.engine.datafiles import placeholder_header, read_json
from easel.engine.errors import DataFileError


def test_reads_json(tmp_path):
    p = tmp_path / "d.json"
    p.write_text('{"a": [1, 2]}', encoding="utf-8")
    assert read_json(str(p), "deck file") == {"a": [1, 2]}


@pytest.mark.parametrize("content, message", [
    (None, "cannot read deck file .*d.json: not found"),
    ("dir", "is a directory"),
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe\x00", "not UTF-8 text"),
])
def test_each_failure_is_a_data_file_error(tmp_path, content, message):
    p = tmp_path / "d.json"
    if content == "dir":
        p.mkdir()
    elif content is not None:
        p.write_bytes(content)
    with pytest.raises(DataFileError, match=message):
        read_json(str(p), "deck file")


def test_placeholder_header():
    assert placeholder_header({}, "f") == (False, "")
    assert placeholder_header({"placeholder": True, "description": "guessed"}, "f") == (True, "guessed")
    with pytest.raises(DataFileError, match="f: 'placeholder' must be true or false"):
        placeholder_header({"placeholder": "yes"}, "f")
    with pytest.raises(DataFileError, match="f: 'description' must be text"):
        placeholder_header({"description": 3}, "f")
