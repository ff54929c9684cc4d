PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BROWSER_STAMP := $(VENV)/.browser

.PHONY: demo lint test browser bench bench-api bytecode compiled pure wheel catalogues messages rule-ids clean

# The message catalogues (docs/i18n.md): one gettext domain per part of the project, each with the
# sources it is extracted from in referee/locale/DOMAIN.cfg and its Chinese in
# referee/locale/zh/LC_MESSAGES/DOMAIN.po (committed); the .mo files are built here, not committed.
LOCALES := referee/locale
DOMAINS := $(basename $(notdir $(wildcard $(LOCALES)/*.cfg)))
KEYWORDS := -k msg -k msg_n:1,2 -k word -k word_of:1c,2
PO := $(wildcard $(LOCALES)/zh/LC_MESSAGES/*.po)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=77'
	REFEREE_PURE_BUILD=1 $(BIN)/pip install --quiet -e '.[api,test,dask,integrity,browser,compiled]'     # compiled below
	touch $(STAMP)

# The project's own modules compiled to bytecode: an editable install leaves that to Python, which
# may be told not to write it (PYTHONDONTWRITEBYTECODE) and then compiles every module at every
# start (referee --version: 0.14 s instead of 0.10 s). Quick when nothing changed.
bytecode: $(STAMP) compiled catalogues
	@$(BIN)/python -m compileall -q referee cli api

catalogues: $(PO:.po=.mo)

# docs/rule-ids.md, written from the registry of rule ids (referee/ruleids.json).
rule-ids: $(STAMP)
	$(BIN)/python -m referee.ruleids > docs/rule-ids.md

$(LOCALES)/zh/LC_MESSAGES/%.mo: $(LOCALES)/zh/LC_MESSAGES/%.po | $(STAMP)
	@$(BIN)/pybabel -q compile -D $* -d $(LOCALES) -l zh

# After messages are added or changed in the code: the templates extracted anew and each
# catalogue brought in step (new messages then wait for their Chinese: tests/test_translations.py).
messages: $(STAMP)
	@for domain in $(DOMAINS); do \
	  $(BIN)/pybabel -q extract -F $(LOCALES)/$$domain.cfg $(KEYWORDS) --no-location --sort-output \
	    --project cgr-referee -o $(LOCALES)/$$domain.pot . && \
	  { [ -f $(LOCALES)/zh/LC_MESSAGES/$$domain.po ] || \
	    $(BIN)/pybabel -q init -D $$domain -i $(LOCALES)/$$domain.pot -d $(LOCALES) -l zh; } && \
	  $(BIN)/pybabel -q update -D $$domain -i $(LOCALES)/$$domain.pot -d $(LOCALES) -l zh \
	    --no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date || exit 1; \
	done

# The hot modules (typed for it) compiled with mypyc where a C compiler is: the same reports, faster
# (docs/internals.md, "Two builds"); without a compiler, or if the build fails, they stay pure Python. A module
# edited after its build is read from its source until the next build (referee/__init__.py). setup.py
# builds them (into build/, then copied beside their sources), and the wheel reuses that build.
COMPILED := referee/actions.py referee/canonical.py referee/cards.py referee/claims.py referee/gandengyan.py referee/gouji.py referee/guandan.py referee/precheck.py referee/reports.py
COMPILED_STAMP := $(VENV)/.compiled

compiled: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(STAMP) $(COMPILED) setup.py
	@rm -rf *__mypyc*.so build/lib.*     # one group: any change rebuilds it all, and nothing stale reaches the wheel
	@mkdir -p build && $(BIN)/python setup.py build_ext --inplace >build/mypyc.log 2>&1 || \
	  { tail -20 build/mypyc.log; echo "the mypyc build failed: the pure-Python build is used"; $(MAKE) -s pure; }
	@grep -h "pure-Python build is used" build/mypyc.log || find referee -maxdepth 1 -name '*.so' -exec touch {} +
	@touch $@

pure:
	rm -f referee/*.so *__mypyc*.so $(COMPILED_STAMP)

# The installable wheel (dist/), with the compiled modules of the build above where there are any, the
# docs the commands read and the catalogues compiled (setup.py); tests/test_wheel.py installs it.
WHEEL_STAMP := dist/.built

wheel: $(WHEEL_STAMP)

$(WHEEL_STAMP): $(COMPILED_STAMP) pyproject.toml setup.py MANIFEST.in \
                $(shell find referee cli api docs -type f ! -path '*/__pycache__/*' ! -name '*.so' ! -name '*.mo')
	@rm -rf dist && mkdir -p build && find build -path 'build/lib.*' -type f ! -name '*.so' -delete
	@{ ls referee/*.so >/dev/null 2>&1 || export REFEREE_PURE_BUILD=1; } && \
	  $(BIN)/pip wheel --quiet --no-build-isolation --no-deps --wheel-dir dist . >build/wheel.log 2>&1 || \
	  { tail -20 build/wheel.log; exit 1; }
	@ls dist/*.whl && touch $@

demo: bytecode
	$(BIN)/referee validate samples/*/*.json; \
	status=$$?; echo "referee validate exited $$status (1 = some sample records are disputed on purpose)"

# The browser tests drive a system Chromium (playwright's own download needs a CDN): Debian's
# package, installed here when apt-get may (root); without one those tests skip and say why. A Chinese
# font too, for the viewer in Chinese (issue 22).
$(BROWSER_STAMP): | $(STAMP)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "no Chromium could be installed: the browser tests will skip"
	@fc-list :lang=zh 2>/dev/null | grep -q . || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null; } || \
	  echo "no Chinese font could be installed: the viewer's Chinese screenshot will show empty boxes"
	touch $@

browser: $(BROWSER_STAMP)

# The habits the tests start with (and so .ci/run): ruff's lint and its formatting over every Python file,
# mypy over referee/ (what each checks: pyproject.toml, [tool.ruff] and [tool.mypy]).
lint: $(STAMP)
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/mypy

# The tests in TEST_PROCESSES processes (pytest-xdist), a test file to whichever is free, so that what a file
# sets up once (a browser, the wheel's fresh environment, a server) is set up in one process; plain `pytest`
# runs them all in one.
TEST_PROCESSES ?= 2

test: lint bytecode wheel $(BROWSER_STAMP)
	$(BIN)/pytest -q -n $(TEST_PROCESSES) --dist loadfile

bench: bytecode
	$(BIN)/python benchmarks/throughput.py
	$(BIN)/python benchmarks/processes.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/store_import.py
	$(BIN)/python benchmarks/audit.py
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/desk.py

bench-api: bytecode
	$(BIN)/python benchmarks/api_throughput.py

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache referee/*.so *__mypyc*.so $(LOCALES)/*.pot $(LOCALES)/zh/LC_MESSAGES/*.mo
	find referee cli api -name __pycache__ -prune -exec rm -rf {} +
