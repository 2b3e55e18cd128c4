# DescriptorPin: make help lists the targets.
GO        ?= go
BIN       ?= bin/descriptorpin
VERSION   ?= 0.1.0-dev
COMMIT    ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS   := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
FUZZTIME  ?= 10s
# nfpm builds the .deb and .rpm; pinned, run through the module proxy (go.mod is not touched).
# v2.48.0 or later: earlier releases wrote absolute cpio names (/usr/bin/...) into the .rpm payload.
NFPM_VERSION ?= v2.48.0
NFPM      ?= $(GO) run github.com/goreleaser/nfpm/v2/cmd/nfpm@$(NFPM_VERSION)

.PHONY: help build demo run test verify hooks bench fuzz package clean

help: ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-8s %s\n", $$1, $$2}'

build: ## build bin/descriptorpin
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/descriptorpin

demo: build ## watch a copy of the samples while a rug pull, a poisoning and a shadow happen
	./$(BIN) demo

run: build ## scan the mutated sample against the sample pin (exit 1: findings are the point)
	@./$(BIN) scan samples/inventory_mutated.json -p samples/pin.json; code=$$?; \
	 echo "(exit $$code: 1 means findings present, as expected for this sample)"; \
	 [ $$code -eq 1 ]

# -race needs cgo and a C compiler: a machine with Go and make only runs
# the tests without it and says so; CI has gcc and keeps -race.
# The detector's corpus-wide checks run in one goroutine and the CLI's
# 50,000-tool check is about size: the race detector has nothing to find
# in them and makes them ten times slower, so they skip under -race
# (skipUnderRace) and run once without it, alongside the race run
# (.ci/test). .ci/layout checks that every test calling skipUnderRace is
# named here.
PLAINONLY := ^(TestGatesHoldWhereTheirExpressionsMatch|TestPrefiltersBoundPatternMatches|TestPatternFiltersChangeNothing|TestFindingsDigest|TestEvalTuning|TestEvalRealWorld|TestHashedFindingsAreTheSame|TestPhraseSetsMatchTheirExpressions|TestPatIndexMatchesScan|TestReferenceGatesKeepOutput|TestCollectorMatchesStringPaths|TestFiftyThousandToolPinRoundTrips)$$
PLAINPKGS := ./engine/detect ./cmd/descriptorpin

test: ## run every test (with the race detector where cgo works)
	@bash .ci/test '$(GO)' '$(PLAINONLY)' $(PLAINPKGS)

verify: ## gofmt, go vet, staticcheck, cross-builds, conformance
	bash .ci/verify

hooks: ## run gofmt, go vet and the layout rules before every commit (git config core.hooksPath)
	git config core.hooksPath .githooks

bench: ## measure the current tree (about 2.5 min) and regenerate docs/benchmarks.md from the run
	bash bench/run.sh --write

fuzz: ## a short pass over every fuzz target (FUZZTIME=10s each)
	bash .ci/fuzz $(FUZZTIME)

package: ## build dist/*.deb and dist/*.rpm with nfpm (VERSION=x.y.z is stamped into the binary)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/descriptorpin ./cmd/descriptorpin
	@./bin/descriptorpin version | grep -qxF 'descriptorpin $(VERSION)' || { echo "package: bin/descriptorpin does not say version $(VERSION)" >&2; exit 1; }
	bash packaging/manpage.sh bin/descriptorpin | gzip -9n > bin/descriptorpin.1.gz
	bash packaging/changelog.sh '$(VERSION)' > bin/changelog.yml
	gzip -9nc CHANGELOG.md > bin/changelog.gz
	mkdir -p dist
	VERSION='$(VERSION)' ARCH=$$($(GO) env GOARCH) $(NFPM) package -f packaging/nfpm.yaml -p deb -t dist/
	VERSION='$(VERSION)' ARCH=$$($(GO) env GOARCH) $(NFPM) package -f packaging/nfpm.yaml -p rpm -t dist/

clean: ## remove build output
	rm -rf bin dist
