"""``check_out_file`` and ``out_dir_while``: an output is tried before the work, leaves nothing behind (real files)."""

from __future__ import annotations

import pytest

from wmbench.harness.run.out_dir import OutDirError, check_out_file, out_dir_while


def test_a_new_file_gets_its_folder_and_the_trial_file_is_removed(tmp_path):
    out = tmp_path / "new" / "folder" / "fork.json"
    assert check_out_file(out, "--json", "a .json file") == out
    assert out.parent.is_dir() and not out.exists()


def test_an_existing_file_is_left_as_it_was(tmp_path):
    out = tmp_path / "video.mp4"
    out.write_bytes(b"earlier video")
    check_out_file(out, "--out", "an .mp4 file")
    assert out.read_bytes() == b"earlier video"


def test_a_directory_or_a_path_under_a_file_is_refused_in_words(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(OutDirError, match=r"is a directory; expected the path of an \.mp4 file$"):
        check_out_file(tmp_path, "--out", "an .mp4 file")
    with pytest.raises(OutDirError, match=r"afile is a file; expected a directory there$"):
        check_out_file(tmp_path / "afile" / "v.mp4", "--out", "an .mp4 file")


def test_a_folder_made_for_refused_work_is_removed_and_one_written_into_is_kept(tmp_path):
    with pytest.raises(ValueError, match="refused"), out_dir_while(tmp_path / "refused"):
        raise ValueError("refused")
    assert not (tmp_path / "refused").exists()
    with pytest.raises(ValueError, match="stopped"), out_dir_while(tmp_path / "kept") as out:
        (out / "episodes.jsonl").write_text("{}\n")
        raise ValueError("stopped")
    assert (tmp_path / "kept" / "episodes.jsonl").is_file()
    (tmp_path / "earlier").mkdir()
    with pytest.raises(ValueError, match="refused"), out_dir_while(tmp_path / "earlier"):
        raise ValueError("refused")
    assert (tmp_path / "earlier").is_dir()  # not made here: left as it was
