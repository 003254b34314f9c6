"""What really runs the component: the kubelet's $(VAR) expansion, shell scripts (sh -c), systemd's
${VAR}, and pflag's reading of a one-dash word. The hostile inputs are files under
tests/samples/hostile/; a value the inputs cannot tell is never guessed."""

import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES

from kcompat.core.inspect import InspectError, combine_readings, read_input
from kcompat.core.inspect.messages import pflag_error
from kcompat.core.inspect.shell import (
    Unknown,
    Word,
    kubelet_expand,
    read_script,
    systemd_expand,
)

HOSTILE = SAMPLES.parent / "hostile"
VERSION_134 = SAMPLES / "version-1.36.2-emulating-1.34.json"
VERSION_133 = HOSTILE / "version-1.36.2-emulating-1.33.json"


def read(name, folder=HOSTILE):
    return read_input((folder / name).read_bytes(), name)


def combined(*files):
    """The readings of files of tests/samples/hostile (by name) or any path, combined."""
    return combine_readings([read_input(Path(f).read_bytes(), Path(f).name) if isinstance(f, Path) else read(f) for f in files])


def flags(reading, component="kube-apiserver"):
    [flag_set] = [s for s in reading.flag_sets if s.component == component]
    return {name: fact.value for name, fact in flag_set.flags}


# --- the kubelet: $(VAR) from the container's env ------------------------------------------------

def test_kubelet_expands_env_in_order_as_the_kubelet_does():
    reading = read("pod-env-var.yaml")
    assert flags(reading) == {"emulated-version": "1.34", "feature-gates": "MutatingAdmissionPolicy=false"}
    [emulated] = reading.flag_sets[0].facts("emulated-version")
    assert emulated.text == "--emulated-version=$(EMU) (expanded: --emulated-version=1.34)"
    assert str(emulated.where) == "pod-env-var.yaml line 13"


def test_kubelet_expansion_rules():
    env = {"A": "1.33", "B": Unknown("B", "B is set from fieldRef status.podIP, which the inputs do not show")}
    assert kubelet_expand("--x=$(A)", env, lambda n: None).text == "--x=1.33"
    assert kubelet_expand("--x=$$(A)", env, lambda n: None).text == "--x=$(A)"  # escaped: literal
    assert kubelet_expand("--x=$(NOPE)", env, lambda n: None).text == "--x=$(NOPE)"  # undefined: as written
    assert kubelet_expand("--x=$(A", env, lambda n: None).text == "--x=$(A"  # incomplete: as written
    unknown = kubelet_expand("--x=$(B)", env, lambda n: None)
    assert not unknown.is_known and unknown.known == len("--x=") and "fieldRef status.podIP" in unknown.unknown[0].why


def test_an_escaped_reference_reaches_the_binary_literally():
    # $$(EMU) is the kubelet's escape: the binary receives "$(EMU)" and refuses it (not "$$(EMU)")
    [flag_set] = read("pod-env-escaped.yaml").flag_sets
    assert [f.value for f in flag_set.facts("emulated-version")] == ["$(EMU)"]


def test_an_env_value_from_a_configmap_is_not_guessed():
    reading = read("pod-env-configmap.yaml")
    [unread] = reading.flag_sets[0].unread
    assert unread.flag == "emulated-version"
    assert "EMU is set from configMapKeyRef kube-flags/emulated-version, which the inputs do not show" in unread.why
    with pytest.raises(InspectError) as exc:
        combine_readings([reading])  # alone: no answer rather than the binary's own release
    [problem] = exc.value.problems
    assert problem.startswith("pod-env-configmap.yaml line 13: the value of --emulated-version cannot be known from the inputs: --emulated-version=$(EMU)")
    # with /version, what the running binary reports is used, and said
    with_version = combine_readings([reading, read("version-1.36.2-emulating-1.34.json", SAMPLES)])
    assert with_version.emulated == ("1.34",)
    assert any("cannot be known from this input" in w and "what /version reports is used" in w for w in with_version.warnings)


def test_an_env_var_defined_later_is_left_as_written_with_a_note():
    text = (HOSTILE / "pod-env-var.yaml").read_text().replace("--emulated-version=$(EMU)", "--emulated-version=$(LATER)")
    reading = read_input(text, "pod.yaml")
    assert flags(reading)["emulated-version"] == "$(LATER)"
    assert any("$(LATER) is not defined by the container's env, so the kubelet passes it as written" in n for n in reading.notes)


# --- systemd: Environment= and ${VAR} -------------------------------------------------------------

def test_systemd_unit_environment_is_expanded():
    reading = read("kube-apiserver.service")
    assert flags(reading) == {"emulated-version": "1.33", "feature-gates": "JobManagedBy=true"}
    assert combined("kube-apiserver.service", VERSION_133).emulated == ("1.33",)


def test_systemd_environment_file_makes_the_value_unknown():
    reading = read("kube-apiserver-envfile.service")
    unread = {u.flag: u for u in reading.flag_sets[0].unread}
    assert "EnvironmentFile=/etc/default/kube-apiserver may set it" in unread["emulated-version"].why
    assert unread[None].written == "$KUBE_APISERVER_ARGS"  # a whole-word $VAR may be several flags
    with pytest.raises(InspectError, match="the value of --emulated-version cannot be known"):
        combine_readings([reading, read_input('{"gitVersion": "v1.32.4"}', "v.json")])  # a 1.32 /version reports none


def test_systemd_expansion_rules():
    env = {"A": "1.33", "ARGS": "--x=1 --y=2"}
    unset = lambda name: None  # noqa: E731 - systemd passes nothing for a variable nobody sets
    words = systemd_expand(["--e=${A}", "$ARGS", "--lit=$A", "--d=$$", "--u=${NOPE}", "${A}${A}"], env, unset)
    assert [w.text for w in words] == ["--e=1.33", "--x=1", "--y=2", "--lit=$A", "--d=$", "--u=", "1.331.33"]


# --- shell scripts ---------------------------------------------------------------------------------

def test_flags_inside_sh_c_are_read():
    reading = read("pod-sh-c.yaml")
    assert flags(reading) == {"emulated-version": "1.33"}
    assert combined("pod-sh-c.yaml").emulated == ("1.33",)


def test_script_in_args_with_env_and_positional_parameters():
    reading = read("pod-bash-c-args.yaml")
    assert flags(reading) == {"emulated-version": "1.34", "feature-gates": "JobManagedBy=true"}


def test_a_script_file_is_a_warning_not_a_silent_default():
    reading = read("pod-script-file.yaml")
    [unread] = reading.flag_sets[0].unread
    assert unread.flag is None and unread.written == "/bin/sh /scripts/start-apiserver.sh"
    result = combined("pod-script-file.yaml")
    assert any("may hold flags that cannot be read: the command line it runs is in a file the inputs do not show" in w for w in result.warnings)


@pytest.mark.parametrize("line,expected", [
    ("sh -c 'exec kube-apiserver --emulated-version=1.33'", {"emulated-version": "1.33"}),
    ('/bin/bash -lc "kube-apiserver --emulated-version=1.32 --feature-gates=A=true"', {"emulated-version": "1.32", "feature-gates": "A=true"}),
    ("sh -c 'set -e; mkdir -p /x && exec kube-apiserver --emulated-version=1.34 >>/var/log/a 2>&1'", {"emulated-version": "1.34"}),
    ("sh -c 'E=1.31; exec kube-apiserver --emulated-version=$E'", {"emulated-version": "1.31"}),
    ("sh -c 'exec \"$0\" \"$@\"' kube-apiserver --emulated-version=1.33", {"emulated-version": "1.33"}),
    ("busybox sh -c 'exec kube-apiserver --emulated-version=1.33'", {"emulated-version": "1.33"}),
    ("env A=1 nice -n 5 kube-apiserver --emulated-version=1.33 # started by hand", {"emulated-version": "1.33"}),
])
def test_command_lines_through_shells(line, expected):
    assert flags(read_input(line + "\n", "cmd.sh")) == expected


def test_shell_variables_the_input_does_not_set_are_unknown():
    [flag_set] = read_input("kube-apiserver --emulated-version=$EMU --feature-gates=\"${GATES}\"\n", "cmd.sh").flag_sets
    assert {u.flag: u.why for u in flag_set.unread} == {
        "emulated-version": "EMU is a shell variable the input does not set",
        "feature-gates": "GATES is a shell variable the input does not set",
    }
    assert flag_set.flags == ()


def test_a_ps_line_is_read_as_the_process_has_it_not_as_shell_text():
    ps = "root  1873  5.2  7.9 1618508 318644 ?  Ssl  08:14  6:02 kube-apiserver --oidc-issuer-url=https://x/?a=1&b=$2 --emulated-version=1.33\n"
    assert flags(read_input(ps, "ps.txt")) == {"emulated-version": "1.33"}


def test_script_commands_and_doubts():
    script = read_script("if [ -f /x ]; then exec kube-apiserver --a; else exec kube-apiserver --b; fi", {}, lambda n: None)
    assert [w.text for w in script.commands[1].words] == ["exec", "kube-apiserver", "--a"]
    assert "control flow (if, case, loops)" in script.doubts


#: Words the shell tokenizer must split exactly as shlex.split(posix=True) when the text holds
#: no operators, expansions or comments (the characters a ps line and a flag value use).
shell_text = st.text(alphabet=st.sampled_from(list("ab-=,./:  \t'\"\\x1")), max_size=40)


@settings(max_examples=400, deadline=None)
@given(shell_text)
def test_script_words_are_shlex_words(text):
    try:
        expected = shlex.split(text, posix=True)
    except ValueError:
        return
    commands = read_script("prog " + text, {}, lambda n: None).commands  # a program first: no assignment or "." command
    assert [w.text for c in commands for w in c.words] == ["prog", *expected]


# --- pflag: one dash --------------------------------------------------------------------------------

def test_one_dash_is_pflags_shorthand_refusal():
    reading = read_input((HOSTILE / "ps-one-dash.txt").read_bytes(), "ps-one-dash.txt")
    [flag_set] = reading.flag_sets
    assert flag_set.flags == ()  # not read as the emulated version: the binary never gets that far
    [error] = flag_set.refused
    assert pflag_error(error) == "unknown shorthand flag: 'e' in -emulated-version=1.34"
    assert combine_readings([reading, read("version-1.36.2-emulating-1.34.json", SAMPLES)]).refused == (error,)


@pytest.mark.parametrize("line,message", [
    ("kube-apiserver -emulated-version 1.34", "unknown shorthand flag: 'e' in -emulated-version"),
    ("kube-apiserver --v=2 -v 3 -v4 --emulated-version=1.34", None),  # -v (log level) is a real shorthand
    ("kube-apiserver -x", "unknown shorthand flag: 'x' in -x"),
    ("kube-apiserver --emulated-version", "flag needs an argument: --emulated-version"),
    ("kube-apiserver -v", "flag needs an argument: 'v' in -v"),
    ("kube-apiserver ---emulated-version=1.34", "bad flag syntax: ---emulated-version=1.34"),
    ("kube-apiserver --audit-log-path -", None),  # "-" alone is an argument
])
def test_pflag_reading(line, message):
    [flag_set] = read_input(line + "\n", "cmd.txt").flag_sets
    assert [pflag_error(e) for e in flag_set.refused] == ([message] if message else [])


def test_a_value_word_after_an_unknown_flag_is_not_called_a_shorthand():
    # --tls-sni-cert-key takes a value: pflag reads "-x" as that value, not as a flag
    reading = read_input("kube-apiserver --tls-sni-cert-key -x --emulated-version=1.34\n", "cmd.txt")
    assert reading.flag_sets[0].refused == () and flags(reading) == {"emulated-version": "1.34"}


def test_words_keep_how_they_were_written():
    word = Word("--e=1.33", written="--e=${A}")
    assert word.shown() == "--e=${A} (expanded: --e=1.33)" and Word("x").shown() == "x"


def test_a_line_past_the_shell_token_limit_is_read_as_its_words():
    from kcompat.core.inspect.shell import MAX_SCRIPT_TOKENS

    line = "kube-apiserver --emulated-version=1.33 " + " ".join(f"--x{i}=$V" for i in range(MAX_SCRIPT_TOKENS)) + "\n"
    assert flags(read_input(line, "long.sh")) == {"emulated-version": "1.33"}


def test_a_quoted_unknown_argument_may_be_a_flag_but_not_after_a_flag_that_takes_it():
    [flag_set] = read_input('kube-apiserver "$EXTRA" --kubeconfig "$CFG" --emulated-version=1.33\n', "cmd.sh").flag_sets
    assert [(u.flag, u.written) for u in flag_set.unread] == [(None, "$EXTRA")]


def test_a_script_with_branches_is_read_with_a_warning():
    script = "if [ -f /etc/emu ]; then exec kube-apiserver --emulated-version=1.33; else exec kube-apiserver --emulated-version=1.34; fi"
    reading = read_input(f"sh -c '{script}'\n", "cmd.sh")
    assert flags(reading) == {"emulated-version": "1.33"}
    [doubt, several] = reading.notes
    assert "started by a shell script with control flow (if, case, loops)" in doubt
    assert several == "cmd.sh line 1: the script starts kube-apiserver in 2 places; the first is read"


def test_version_does_not_stand_in_for_one_of_two_version_flags():
    # the emulated version is unknown, the min compatibility read: /version's emulated version
    # would be paired with a flag's min compatibility, so the input is refused instead
    text = (HOSTILE / "pod-env-configmap.yaml").read_text().replace(
        "    - --emulated-version=$(EMU)\n", "    - --emulated-version=$(EMU)\n    - --min-compatibility-version=1.33\n")
    reading = read_input(text, "pod.yaml")
    with pytest.raises(InspectError, match="the value of --emulated-version cannot be known from the inputs"):
        combine_readings([reading, read("version-1.36.2-emulating-1.34.json", SAMPLES)])
