PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BROWSER_STAMP := $(VENV)/.browser

.PHONY: demo test browser bench bench-api clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[api,test,dask,browser]'
	touch $(STAMP)

demo: $(STAMP)
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

test: $(STAMP) $(BROWSER_STAMP)
	$(BIN)/pytest -q

# The referee before the speed work of issue 10, timed in the same run for the ratio (BASELINE= to skip).
BASELINE ?= 93597f3

bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py $(if $(BASELINE),--baseline $(BASELINE))
	$(BIN)/python benchmarks/processes.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/startup.py

bench-api: $(STAMP)
	$(BIN)/python benchmarks/api_throughput.py

clean:
	rm -rf $(VENV) build *.egg-info
