"""The client's table of routes against the document the service serves."""

from __future__ import annotations

import httpx

from neurodata._routes import ROUTES

from .conftest import Service


def test_every_route_the_client_calls_is_in_the_services_openapi_document(service: Service) -> None:
    document = httpx.get(f"{service.url}/openapi.json", timeout=30).json()
    missing = [
        f"{name}: {method} {path}"
        for name, (method, path) in ROUTES.items()
        if method.lower() not in document["paths"].get(path, {})
    ]
    assert missing == []
