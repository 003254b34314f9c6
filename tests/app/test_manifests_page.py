"""The Check manifests page: pasted manifests checked as kcompat scan checks them, hostile input
refused by name, the page's flags in the URL (never the inputs)."""


from conftest import ROOT, open_app, plain, rerun

from kcompat.core.scan import MAX_SCAN_BYTES

HELM = (ROOT / "tests" / "samples" / "scan" / "helm-render.yaml").read_text()


def check(at, text):
    at.text_area(key="manifests_paste").input(text)
    next(b for b in at.button if b.label == "Check").click()
    return rerun(at)


def test_nothing_pasted_asks_for_input():
    at = open_app("manifests", binary="1.36", emulated="1.33")
    assert [plain(i.value) for i in at.info] == ["Paste or upload manifests and press Check."]
    assert not at.dataframe


def test_the_answer_the_runtime_config_and_the_url(catalog):
    at = check(open_app("manifests", binary="1.33", emulated="1.31"), HELM)
    assert plain(at.error[0].value) == "4 of 7 objects would not be served by a 1.33 kube-apiserver emulating 1.31."
    table = at.dataframe[0].value
    assert list(table["status"]) == ["not served"] * 4 + ["not checked"]
    assert "networking.k8s.io/v1 Ingress (the replacement the data names)" in list(table["nearest"])
    # --runtime-config on the page: v1beta1 ServiceCIDR served, the nearest version of the v1 object; kept in the URL
    at.text_input(key="manifests_runtime_config").set_value("networking.k8s.io/v1beta1=true")
    rerun(at)
    assert at.query_params["manifests_runtime_config"] == "networking.k8s.io/v1beta1=true"
    table = at.dataframe[0].value
    cidr = table[table["kind"] == "ServiceCIDR"].iloc[0]
    assert cidr["nearest"] == "networking.k8s.io/v1beta1 ServiceCIDR (a served version of ServiceCIDR in networking.k8s.io)"
    # every object with the toggle, which the URL keeps too; the inputs never are
    at.toggle(key="manifests_all").set_value(True)
    rerun(at)
    assert len(at.dataframe[0].value) == 7 and at.query_params["manifests_all"] == "true"
    assert not any("Ingress" in str(v) for v in at.query_params.values())


def test_hostile_and_oversized_input_is_refused_by_name():
    at = check(open_app("manifests", binary="1.36"), "a: &x [1]\nb: *x\n")
    assert any("pasted manifests: anchors and aliases are not allowed" in plain(e.value) for e in at.error)
    # the box keeps one character more than the limit: a longer paste is refused, never read cut
    too_long = "apiVersion: v1\nkind: A\n#" + "x" * MAX_SCAN_BYTES
    at = check(open_app("manifests", binary="1.36"), too_long[: MAX_SCAN_BYTES + 1])
    assert [plain(e.value) for e in at.error] == [f"pasted manifests: more than the limit of {MAX_SCAN_BYTES:,} bytes for one manifest input"]
    at = check(open_app("manifests", binary="1.36"), "apiVersion: v1\nmetadata: {name: x}\n")
    assert any("pasted manifests line 1: no kind (a string): not a Kubernetes object" in plain(e.value) for e in at.error)


def test_the_uploaders_limit_is_the_checks_limit():
    """The uploader said "5MB per file" (server.maxUploadSize) and the check refused anything above
    1,048,576 bytes: the widget's own limit is now the check's, 1 MiB, in its label and its help."""

    at = open_app("manifests")
    [uploader] = at.get("file_uploader")
    assert uploader.proto.max_upload_size_mb * 1024 * 1024 == MAX_SCAN_BYTES == 1_048_576
    assert "1 MiB (1,048,576 bytes) each" in uploader.proto.help
