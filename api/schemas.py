"""Marshmallow schemas of every request and response body; the OpenAPI document is made from them."""

from __future__ import annotations

import re

import marshmallow
from marshmallow import fields, validate

from referee.messages import part

msg, msg_n, word, word_of = part("api")

# the bounds of query parameters, said in words the catalogue holds (marshmallow's own are formatted English)
FROM_0 = validate.Range(min=0, error=word("must be 0 or more"))


class Digits(fields.Integer):
    """A query's whole number, written in ASCII digits: int() would read "1_0" as 10 and "٣" as 3."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not _DIGITS.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


_DIGITS = re.compile(r"-?[0-9]+")


class Schema(marshmallow.Schema):
    """A schema whose copy is itself: flask-smorest deep-copies an endpoint's documentation at each of its
    decorators and again when the blueprint is registered, the schema instances in it with every one of their
    fields, which took a fifth of the app's start (issue 36); an instance is never changed once made."""

    def __deepcopy__(self, memo):
        return self


class FindingSchema(Schema):
    severity = fields.String(required=True, validate=validate.OneOf(["error", "warning", "info"]))
    rule = fields.String(required=True, metadata={"description": "stable rule id, e.g. guandan.follow"})
    at = fields.String(required=True, metadata={"description": "JSON Pointer into the record"})
    seat = fields.Integer()
    deal = fields.Integer()
    action = fields.Integer()
    message = fields.String(required=True)
    template = fields.String(metadata={"description": "the message's English template, with {named} parameters"})
    params = fields.Dict(
        metadata={
            "description": "the template's parameters as plain values (cards as codes; "
            "a phrase as an object with its own template and params)"
        }
    )
    legal = fields.Dict(metadata={"description": "what would have been legal where the replay stopped"})
    ruling = fields.Integer(
        metadata={
            "description": "the ruling that decided this finding (an index into the "
            "record's rulings); the finding is then info"
        }
    )


class ErrorSchema(Schema):
    """The one shape of every error body."""

    code = fields.Integer(required=True, metadata={"description": "HTTP status code"})
    status = fields.String(required=True, metadata={"description": "HTTP status name"})
    message = fields.String(required=True)
    findings = fields.List(
        fields.Nested(FindingSchema),
        required=True,
        metadata={"description": "what is wrong with the request body or parameters"},
    )


class ReportSchema(Schema):
    """The report of one record, as `referee validate --json` prints it (notation section 9)."""

    source = fields.String()
    valid = fields.Boolean(required=True)
    game = fields.String(required=True, allow_none=True)
    rules = fields.Dict(required=True, allow_none=True, metadata={"description": "the effective rules"})
    findings = fields.List(fields.Nested(FindingSchema), required=True)
    deals = fields.List(fields.Dict(), required=True, metadata={"description": "each deal's computed outcome"})
    match = fields.Dict(metadata={"description": "the match outcome"})
    inferred_rules = fields.Dict(
        metadata={
            "description": "with infer_rules: the closest rule sets the invalid "
            "record is valid under (valid_under, searched, complete)"
        }
    )
    rulings = fields.Integer(
        metadata={"description": "for a record with rulings: how many the check applied (notation section 10)"}
    )


class InferSchema(Schema):
    infer_rules = fields.Boolean(
        load_default=False,
        metadata={"description": "for an invalid record, search the documented presets and options (up to 2 changes)"},
    )


class RulingQuerySchema(Schema):
    finding = Digits(validate=FROM_0, metadata={"description": "rule on finding N only"})
    deal = Digits(validate=FROM_0, metadata={"description": "rule on deal D's findings only"})
    action = Digits(
        validate=FROM_0,
        metadata={"description": "with deal: action A's findings only; the action's table when it has none"},
    )


class RecordSchema(Schema):
    """A CGR/1 record (notation section 4): its outline. The full structure is the CGR/1 JSON Schema
    (`referee schema`); the referee reads the body against it and answers 400 with findings."""

    cgr = fields.Integer(required=True, validate=validate.OneOf([1]))
    game = fields.String(required=True, validate=validate.OneOf(["guandan", "gouji", "gandengyan"]))
    rules = fields.Raw(metadata={"description": "a preset name, or {preset, options}"})
    meta = fields.Dict(keys=fields.String(), values=fields.String())
    players = fields.List(fields.String(), required=True, validate=validate.Length(min=1))
    start = fields.Dict()
    deals = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1))
    result = fields.Dict()
    rulings = fields.List(fields.Dict(), metadata={"description": "the arbiter's decisions (notation section 10)"})
    comment = fields.String()


class RulingSchema(Schema):
    """An arbiter's decision on one error of the record (notation section 10)."""

    rule = fields.String(metadata={"description": "the rule id of the finding decided (none: a deal voided)"})
    at = fields.String(required=True, metadata={"description": "the JSON Pointer of the finding decided"})
    decision = fields.String(required=True, validate=validate.OneOf(["stands", "score", "void", "claim"]))
    by = fields.String(required=True, metadata={"description": "who decided"})
    date = fields.String(metadata={"description": "when, ISO 8601"})
    reason = fields.String()
    result = fields.Dict(metadata={"description": "with score: the deal's outcome as decided"})
    comment = fields.String()


class FirstFindingSchema(Schema):
    severity = fields.String(required=True)
    rule = fields.String(required=True)
    deal = fields.Integer(allow_none=True, metadata={"description": "from 0"})
    action = fields.Integer(allow_none=True, metadata={"description": "from 0"})


class RecordSummarySchema(Schema):
    id = fields.String(required=True, metadata={"description": "SHA-256 of the canonical record"})
    game = fields.String(required=True)
    event = fields.String(required=True, allow_none=True)
    date = fields.String(required=True, allow_none=True)
    players = fields.List(fields.String(), required=True)
    valid = fields.Boolean(required=True)
    deals = fields.Integer(required=True)
    submitted_by = fields.String(required=True)
    submitted_at = fields.String(required=True, metadata={"description": "UTC, ISO 8601"})
    round = fields.String(allow_none=True, metadata={"description": "meta.round as written (a number as JSON)"})
    table = fields.String(allow_none=True, metadata={"description": "meta.table as written (a number as JSON)"})
    first_finding = fields.Nested(
        FirstFindingSchema,
        allow_none=True,
        metadata={"description": "the first error, else the first finding; null: none"},
    )


class SubmittedSchema(RecordSummarySchema):
    created = fields.Boolean(required=True, metadata={"description": "false: the record was already stored"})
    report = fields.Nested(ReportSchema, required=True)


class RuledSchema(RecordSummarySchema):
    version = fields.Integer(
        required=True, metadata={"description": "the record's version this ruling made (1 is the record as submitted)"}
    )
    report = fields.Nested(ReportSchema, required=True)


class VersionSchema(Schema):
    n = fields.Integer(required=True, metadata={"description": "1: as submitted; then one per ruling"})
    id = fields.String(required=True, metadata={"description": "the id of this version"})
    kind = fields.String(required=True, validate=validate.OneOf(["submitted", "ruling"]))
    by = fields.String(required=True, metadata={"description": "who submitted it, or the arbiter of its ruling"})
    made_at = fields.String(required=True, metadata={"description": "UTC, ISO 8601"})
    rulings = fields.Integer(required=True, metadata={"description": "the rulings this version holds"})
    report = fields.Nested(ReportSchema, required=True)


class VersionsSchema(Schema):
    versions = fields.List(fields.Nested(VersionSchema), required=True)


class SubmitterSchema(Schema):
    submitter = fields.String(
        data_key="X-Submitter", load_default="api", metadata={"description": "who submits the record (stored with it)"}
    )


class RecordQuerySchema(Schema):
    game = fields.String()
    event = fields.String()
    player = fields.String(metadata={"description": "a player's name, at any seat"})
    date = fields.String(metadata={"description": "meta.date or its beginning: 2026-05 finds all of May"})
    valid = fields.Boolean()
    page = Digits(load_default=1, validate=validate.Range(min=1, max=1_000_000, error=word("must be 1 to 1,000,000")))
    per_page = Digits(load_default=20, validate=validate.Range(min=1, max=100, error=word("must be 1 to 100")))


class RecordPageSchema(Schema):
    total = fields.Integer(required=True)
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
    items = fields.List(fields.Nested(RecordSummarySchema), required=True)


class StepSchema(Schema):
    """Step 0 is the table as dealt, step k+1 the table after action k; an action the referee
    rejected is the last step, on the table it was tried on. As `referee replay --json` shows it."""

    step = fields.Integer(required=True)
    action = fields.Dict(required=True, allow_none=True, metadata={"description": "the action of this step"})
    table = fields.Dict(required=True, metadata={"description": "the game's snapshot of the table"})
    findings = fields.List(
        fields.Nested(FindingSchema),
        required=True,
        metadata={"description": "the deal's findings made at this step (claims: the last step)"},
    )
    rejected = fields.Boolean(metadata={"description": "true: the action was rejected; the table is before it"})
    outcome = fields.Dict(allow_none=True, metadata={"description": "the deal's outcome, on its last step"})


class StandingSchema(Schema):
    rank = fields.Integer(required=True)
    game = fields.String(required=True)
    entrant = fields.String(required=True, metadata={"description": "a player, or a team's names joined by &"})
    players = fields.List(fields.String(), required=True)
    played = fields.Integer(required=True)
    won = fields.Integer(required=True)
    drawn = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    match_points = fields.Integer(required=True)
    margin = fields.Integer(
        required=True,
        metadata={"description": "Guandan: level difference; Gou Ji (team) and Gan Deng Yan (player): points"},
    )
    tie_break = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "what placed it among the entrants level on match points: margin, head-to-head or name"
        },
    )


class NotCountedSchema(Schema):
    id = fields.String(required=True, metadata={"description": "the match's first record"})
    records = fields.List(fields.String(), required=True)
    game = fields.String(required=True)
    round = fields.String(allow_none=True)
    table = fields.String(allow_none=True)
    reason = fields.String(required=True)
    counted = fields.Boolean(metadata={"description": "an invalid match counted (count_invalid)"})


class MatchResultSchema(Schema):
    id = fields.String(required=True, metadata={"description": "the match's first record"})
    records = fields.List(fields.String(), required=True, metadata={"description": "its records, in order"})
    game = fields.String(required=True)
    round = fields.String(allow_none=True)
    table = fields.String(allow_none=True)
    entrants = fields.List(fields.String(), required=True)
    winner = fields.String(required=True, allow_none=True, metadata={"description": "null: a draw"})
    margin = fields.Integer(required=True)
    rulings = fields.List(
        fields.Dict(),
        metadata={
            "description": "the rulings the match's records carry, each "
            "with its record's id (`source`): its result "
            "is as ruled"
        },
    )


class StandingsSchema(Schema):
    event = fields.String(required=True)
    points = fields.List(fields.Integer(), required=True, metadata={"description": "match points: win, draw, loss"})
    records = fields.Integer(required=True)
    matches = fields.Integer(required=True, metadata={"description": "records of one table and round are one match"})
    counted = fields.Integer(required=True, metadata={"description": "matches counted"})
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    results = fields.List(
        fields.Nested(MatchResultSchema), required=True, metadata={"description": "the matches counted"}
    )
    invalid = fields.List(
        fields.Nested(NotCountedSchema),
        required=True,
        metadata={"description": "matches the referee finds invalid, with the first error"},
    )
    not_counted = fields.List(fields.Nested(NotCountedSchema), required=True)
