"""The README's examples run as written, and the package ships the LICENSE.

Each ```python block of the README follows an ``<!-- example: PATH -->``
line and equals that file; mypy --strict checks the files (scripts/sdk.sh)
and this test imports each one and posts a signed delivery to it.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import subprocess
import sys
import zipfile
from types import ModuleType
from typing import Any

import pytest

from conftest import SECRET, signed

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _blocks() -> list[tuple[str, str]]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    out = []
    for i, line in enumerate(lines):
        if line != "```python":
            continue
        m = re.fullmatch(r"<!-- example: (\S+) -->", lines[i - 1])
        assert m, f"README.md:{i + 1}: a Python block without an <!-- example: PATH --> line before it"
        end = lines.index("```", i + 1)
        out.append((m.group(1), "\n".join(lines[i + 1 : end]) + "\n"))
    return out


def test_readme_blocks_are_the_example_files() -> None:
    blocks = _blocks()
    assert len(blocks) >= 4
    for path, code in blocks:
        assert code == (ROOT / path).read_text(encoding="utf-8"), f"README block for {path} differs from the file"


def _load(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.setenv("FERRY_WEBHOOK_SECRET", SECRET)
    spec = importlib.util.spec_from_file_location(f"readme_{name}", ROOT / "examples" / "readme" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["flask_app", "webhook_class"])
def test_flask_examples_answer(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app: Any = _load(name, monkeypatch).app
    headers, body = signed({"n": 1})
    r = app.test_client().post("/webhooks", data=body, headers=headers)
    assert (r.status_code, r.get_json()) == (200, {"status": "processed"})
    r = app.test_client().post("/webhooks", data=body + b" ", headers=headers)
    assert (r.status_code, r.get_json()) == (401, {"status": "invalid_signature"})


def test_fastapi_example_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    headers, body = signed({"n": 1})
    r = TestClient(_load("fastapi_app", monkeypatch).app).post("/webhooks", content=body, headers=headers)
    assert (r.status_code, r.json()) == (200, {"status": "processed"})


def test_django_example_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    import test_django  # configures Django's settings

    from django.test import RequestFactory

    view = _load("django_views", monkeypatch).webhooks
    headers, body = signed({"n": 1})
    extra = {k: v for k, v in headers.items() if k != "content-type"}
    r = view(RequestFactory().post("/webhooks", data=body, content_type="application/json", headers=extra))
    assert r.status_code == 200
    assert test_django.urlpatterns  # keeps the import used


def test_wheel_ships_the_license(tmp_path: pathlib.Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    (wheel,) = tmp_path.glob("ferry_webhooks-*.whl")
    with zipfile.ZipFile(wheel) as z:
        licenses = [n for n in z.namelist() if n.endswith("LICENSE")]
        assert licenses, z.namelist()
        assert z.read(licenses[0]).decode() == (ROOT.parents[1] / "LICENSE").read_text(encoding="utf-8")
        metadata = next(z.read(n).decode() for n in z.namelist() if n.endswith("METADATA"))
    assert "License-Expression: MIT" in metadata
    assert "Requires-Python: >=3.10" in metadata
