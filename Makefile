# hdrshoot: build and install the command-line tool.
#   make                       release build (.build/release/hdrshoot)
#   make install               installs to $(PREFIX)/bin (default /usr/local/bin; PREFIX=~/.local for no sudo)
#   make uninstall             removes it again
#   make test                  the test suite, one test at a time (as CI runs it)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SWIFT ?= swift
CONFIGURATION ?= release

.PHONY: all build install uninstall test

all: build

build:
	$(SWIFT) build -c $(CONFIGURATION) --product hdrshoot

install: build
	install -d "$(DESTDIR)$(BINDIR)"
	install -m 0755 "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/hdrshoot" "$(DESTDIR)$(BINDIR)/hdrshoot"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/hdrshoot"

test:
	$(SWIFT) test --no-parallel
