"""``tarot serve --db URL`` / ``TAROT_DB_URL``: kept when usable, refused before start if not."""

from __future__ import annotations

import pytest

from cli.main import main
from server.settings import Settings, SettingsError


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://db/tarot", "must be sqlite:///PATH or postgresql://..., not 'mysql://db/tarot'"),
        ("sqlite://", "needs a file"),
        ("sqlite:///:memory:", "needs a file"),
        ("postgresql+psycopg2://h/db", "must be sqlite:///PATH or postgresql://"),
        ("postgresql://u:secret@h:port/db", "cannot be read"),
    ],
)
def test_a_bad_database_url_is_refused_before_the_server_starts(
    url: str, says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["serve", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tarot serve: ") and says in err and "secret" not in err
    monkeypatch.setenv("TAROT_DB_URL", url)
    assert main(["serve"]) == 2
    assert says in capsys.readouterr().err


def test_usable_database_urls_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().db_url is None  # the default SQLite file
    for url in ("sqlite:////var/lib/tarot/history.db", "postgresql://tarot@db:5432/tarot"):
        assert Settings.from_env(db_url=url).db_url == url
    monkeypatch.setenv("TAROT_DB_URL", "sqlite:///from-env.db")
    assert Settings.from_env().db_url == "sqlite:///from-env.db"
    assert Settings.from_env(db_url="sqlite:///flag.db").db_url == "sqlite:///flag.db"
    with pytest.raises(SettingsError):
        Settings(db_url="ftp://x")
