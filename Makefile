PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BROWSER_STAMP := $(VENV)/.browser

.PHONY: demo test browser bench bench-api bytecode compiled pure clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=77'
	$(BIN)/pip install --quiet -e '.[api,test,dask,browser,compiled]'
	touch $(STAMP)

# The project's own modules compiled to bytecode: an editable install leaves that to Python, which
# may be told not to write it (PYTHONDONTWRITEBYTECODE) and then compiles every module at every
# start (referee --version: 0.14 s instead of 0.10 s). Quick when nothing changed.
bytecode: $(STAMP) compiled
	@$(BIN)/python -m compileall -q referee cli api

# The hot modules (typed for it) compiled with mypyc where a C compiler is: the same reports, faster
# (README, "Performance"); without a compiler, or if the build fails, they stay pure Python. A module
# edited after its build is read from its source until the next build (referee/__init__.py).
COMPILED := referee/actions.py referee/cards.py referee/gouji.py referee/guandan.py
COMPILED_STAMP := $(VENV)/.compiled

compiled: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(STAMP) $(COMPILED)
	@if command -v cc >/dev/null 2>&1; then \
	  mkdir -p build && $(BIN)/mypyc $(COMPILED) >build/mypyc.log 2>&1 && touch referee/*.so *__mypyc*.so || \
	  { tail -20 build/mypyc.log; echo "the mypyc build failed: the pure-Python build is used"; $(MAKE) -s pure; }; \
	else echo "no C compiler: the pure-Python build is used"; fi
	@touch $@

pure:
	rm -f referee/*.so *__mypyc*.so $(COMPILED_STAMP)

demo: bytecode
	$(BIN)/referee validate samples/*/*.json; \
	status=$$?; echo "referee validate exited $$status (1 = some sample records are disputed on purpose)"

# The browser tests drive a system Chromium (playwright's own download needs a CDN): Debian's
# package, installed here when apt-get may (root); without one those tests skip and say why.
$(BROWSER_STAMP): | $(STAMP)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "no Chromium could be installed: the browser tests will skip"
	touch $@

browser: $(BROWSER_STAMP)

test: bytecode $(BROWSER_STAMP)
	$(BIN)/pytest -q

bench: bytecode
	$(BIN)/python benchmarks/throughput.py
	$(BIN)/python benchmarks/processes.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/startup.py

bench-api: bytecode
	$(BIN)/python benchmarks/api_throughput.py

clean:
	rm -rf $(VENV) build *.egg-info referee/*.so *__mypyc*.so
	find referee cli api -name __pycache__ -prune -exec rm -rf {} +
