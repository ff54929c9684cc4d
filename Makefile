PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BROWSER_STAMP := $(VENV)/.browser

.PHONY: demo test browser bench bench-api bytecode clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[api,test,dask,browser]'
	touch $(STAMP)

# The project's own modules compiled to bytecode: an editable install leaves that to Python, which
# may be told not to write it (PYTHONDONTWRITEBYTECODE) and then compiles every module at every
# start (referee --version: 0.14 s instead of 0.10 s). Quick when nothing changed.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q referee cli api

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
	rm -rf $(VENV) build *.egg-info
	find referee cli api -name __pycache__ -prune -exec rm -rf {} +
