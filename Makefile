PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench bench-api clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[api,test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/referee validate samples/*/*.json; \
	status=$$?; echo "referee validate exited $$status (1 = some sample records are disputed on purpose)"

test: $(STAMP)
	$(BIN)/pytest -q

# The referee before the speed work of issue 10, timed in the same run for the ratio (BASELINE= to skip).
BASELINE ?= 93597f3

bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py $(if $(BASELINE),--baseline $(BASELINE))

bench-api: $(STAMP)
	$(BIN)/python benchmarks/api_throughput.py

clean:
	rm -rf $(VENV) build *.egg-info
