PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench bench-api clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[api,test,dask]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/referee validate samples/*/*.json; \
	status=$$?; echo "referee validate exited $$status (1 = some sample records are disputed on purpose)"

test: $(STAMP)
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py

bench-api: $(STAMP)
	$(BIN)/python benchmarks/api_throughput.py

clean:
	rm -rf $(VENV) build *.egg-info
