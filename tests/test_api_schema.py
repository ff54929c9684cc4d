"""The OpenAPI document: it validates, and the API keeps to it under schemathesis (bounded run)."""

from __future__ import annotations

import json

import orjson
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from openapi_spec_validator import validate
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from referee.api import create_app
from tests.guandan_gen import match_record


@schemathesis.serializer("application/x-ndjson")
def _json_lines(ctx, value):
    # json, not orjson: generated bodies may hold integers beyond 64 bits
    return value.encode() if isinstance(value, str) else json.dumps(value).encode()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = create_app(str(tmp_path_factory.mktemp("schema") / "referee.db"))
    app.test_client().post(
        "/v1/records", data=orjson.dumps(match_record(1, max_deals=1)), content_type="application/json"
    )
    return app


def test_the_openapi_document_validates(app):
    document = app.test_client().get("/openapi.json").get_json()
    validate(document)
    assert document["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    for path in document["paths"].values():
        for operation in (path[m] for m in ("get", "post", "delete") if m in path):
            errors = {code: r for code, r in operation["responses"].items() if code.startswith(("4", "5"))}
            assert all(
                r["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
                for r in errors.values()
            )


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_to_its_openapi_document(app, mode):
    """Every operation, with generated requests (schemathesis's pytest loader is driven by hand:
    its lazy fixture loader does not run on this pytest)."""
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 14
    for operation in operations:
        # The document outlines a record, whose full structure (CGR/1) the referee checks: POST
        # /records answers 400 with findings, POST /validate a report, for any body it can read;
        # POST /replay answers 422 with findings for a record it cannot replay, POST .../rulings 422 for a ruling
        # that decides no error of the record.
        excluded = {
            "POST /v1/records": [positive_data_acceptance],
            "POST /v1/replay": [positive_data_acceptance],
            "POST /v1/records/{record_id}/rulings": [positive_data_acceptance],
            "POST /v1/validate": [positive_data_acceptance, negative_data_rejection],
        }.get(operation.label, [])

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        def check(case):
            case.call_and_validate(excluded_checks=excluded)  # noqa: B023 (called below, in this turn)

        try:
            check()
        except Unsatisfiable:
            assert mode == GenerationMode.NEGATIVE, operation.label  # no input of it can be invalid
