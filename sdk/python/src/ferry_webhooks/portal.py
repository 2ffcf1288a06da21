"""Mint customer portal sessions from the tenant's backend.

``portal_session(base_url, api_key, customer_uid, external_user_id=...)``
posts to Ferry's ``/api/v1/customers/{uid}/portal-sessions`` with the
tenant's API key (Ferry's docs/customer-portal.md) and returns the session:
open its ``url`` once, within two minutes, usually in an iframe mounted by
Ferry's ``/embed.js``. Standard library only.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Dict, List, Optional


@dataclass(frozen=True)
class PortalSession:
    session_id: str
    url: str
    expires_at: datetime


class FerryAPIError(Exception):
    """An error answer of Ferry's API."""

    def __init__(self, status: int, code: str, message: str, field: Optional[str] = None) -> None:
        super().__init__(f"ferry: {status} {code}{f' ({field})' if field else ''}: {message}")
        self.status = status
        self.code = code
        self.field = field


def portal_session(
    base_url: str,
    api_key: str,
    customer_uid: str,
    *,
    external_user_id: str,
    external_user_email: Optional[str] = None,
    capabilities: Optional[List[str]] = None,
    endpoint_ids: Optional[List[str]] = None,
    read_only: bool = False,
    ttl_seconds: Optional[int] = None,
    timeout: float = 10.0,
) -> PortalSession:
    """Mint a portal session for the tenant's customer ``customer_uid``.

    Raises :class:`FerryAPIError` for an answer other than 201 (404: no such
    customer; 422: a bad option).
    """
    body: Dict[str, Any] = {"external_user": {"id": external_user_id}}
    if external_user_email:
        body["external_user"]["email"] = external_user_email
    if capabilities is not None:
        body["capabilities"] = capabilities
    if endpoint_ids is not None:
        body["endpoint_ids"] = endpoint_ids
    if read_only:
        body["read_only"] = True
    if ttl_seconds is not None:
        body["ttl_seconds"] = ttl_seconds
    url = base_url.rstrip("/") + "/api/v1/customers/" + urllib.parse.quote(customer_uid, safe="") + "/portal-sessions"
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            status, raw = res.status, res.read(1 << 20)
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read(1 << 20)
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = {}
    if status != 201:
        err = answer.get("error", {}) if isinstance(answer, dict) else {}
        raise FerryAPIError(status, err.get("code", "unknown"), err.get("message", raw[:200].decode(errors="replace")), err.get("field"))
    return PortalSession(
        session_id=answer["session_id"],
        url=answer["url"],
        expires_at=datetime.fromisoformat(answer["expires_at"].replace("Z", "+00:00")),
    )
