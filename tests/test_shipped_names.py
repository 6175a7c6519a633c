"""Issue #25 item 5: shipped rulesets found by name, from any folder: `kierki explain
kierki_standard`, `extends: kierki_standard.yaml`; the file's own folder first; an error that
says where it looked."""
from __future__ import annotations

from kierki_dsl.lint import lint_file
from kierki_dsl.shipped import find_ruleset, rulesets_dir


def test_a_command_finds_a_shipped_ruleset_by_name_from_another_folder(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("explain", "kierki_standard")
    assert rc == 0 and out.startswith("Kierki (standard profile)"), err
    rc, out, err = cli("explain", "must_ruff")  # in variants/
    assert rc == 0 and "must ruff" in out.splitlines()[0], err


def test_extends_finds_a_shipped_ruleset_by_name(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("kierki: 1\nextends: kierki_standard.yaml\nname: house\n", "utf-8")
    assert lint_file(str(house)) == []


def test_the_files_own_folder_comes_first(tmp_path):
    (tmp_path / "kierki_standard.yaml").write_text("kierki: 1\nname: mine\nmatch: {schedule: [a]}\ncontracts:\n"
                                                   "  a: {score: [{per_trick: -20}], total: -260}\n", "utf-8")
    assert find_ruleset("kierki_standard.yaml", str(tmp_path)) == str(tmp_path / "kierki_standard.yaml")
    assert find_ruleset("kierki_standard.yaml", "") == f"{rulesets_dir()}/kierki_standard.yaml"


def test_a_ruleset_found_nowhere_says_where_it_was_looked_for(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    rc, _, err = cli("explain", "kierki_standrd")
    assert rc == 2 and "no such ruleset: 'kierki_standrd'" in err and rulesets_dir() in err
    house = tmp_path / "house.yaml"
    house.write_text("kierki: 1\nextends: kierki_standrd.yaml\nname: house\n", "utf-8")
    [r504] = lint_file(str(house))
    assert r504.code == "R504" and "among the shipped rulesets" in r504.message and (r504.pos.line, r504.pos.col) == (2, 10)


def test_kierki_run_plays_a_shipped_ruleset_by_name(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("run", "kierki_standard", "--players", "random,random,random,random", "--seed", "1")
    assert rc == 0 and "sum of scores: 0" in out, err


def test_the_readme_s_paths_find_the_shipped_rulesets_from_any_folder(tmp_path, monkeypatch, cli):
    """Play-test 5: the README's house rule (`extends: rulesets/kierki_standard.yaml`) and its tour
    (`kierki explain rulesets/variants/must_ruff.yaml`) failed with R504 / "no such ruleset" in any
    folder but the checkout's root — where an installed kierki's user writes them."""
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("explain", "rulesets/variants/must_ruff.yaml")
    assert rc == 0 and "must ruff" in out.splitlines()[0], err
    house = tmp_path / "house.yaml"
    house.write_text("kierki: 1\nextends: rulesets/kierki_standard.yaml\nname: house\n", "utf-8")
    assert lint_file(str(house)) == []
