# gestured: build and install.
#   make                      release build
#   make install              PREFIX=/usr/local, DESTDIR= for staging
#   make check                unit tests
#   make check-portable       the built binaries need no Swift toolchain to run
# The binaries link the Swift runtime statically (--static-swift-stdlib): an
# installed gestured needs only libc, libstdc++, libudev, libevdev, libmtdev and libsystemd,
# and starts with about 1.8 MB less resident memory than with the shared runtime
# (BENCHMARKS.md, "Binary and memory").
# gesture-run goes to $(LIBEXECDIR)/gestured: the long-running `gesturectl lisgd`
# (reading a device) and `gesturectl actions`, which gesturectl execs. It links
# neither Foundation nor argument-parser: `gesturectl actions` waiting for the
# daemon holds 9.1 MB resident instead of 15.9 MB (docs/DESIGN.md, "gesture-run").
# After installing on a live system:
#   systemd-sysusers && systemctl daemon-reload && systemctl enable --now gestured.socket
#   udevadm control --reload && udevadm trigger --subsystem-match=input   (the touchscreen rule)
# and, as each user who wants their actions run (~/.config/gestured/actions.toml):
#   systemctl --user daemon-reload && systemctl --user enable --now gestured-actions.service

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
# gesturectl looks for gesture-run in ../libexec/gestured from its own directory:
# keep LIBEXECDIR beside BINDIR.
LIBEXECDIR ?= $(PREFIX)/libexec
UNITDIR    ?= $(PREFIX)/lib/systemd/system
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
# udev reads /usr/local/lib/udev/rules.d as well as /usr/lib/udev/rules.d.
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
MANDIR     ?= $(PREFIX)/share/man
DOCDIR     ?= $(PREFIX)/share/doc/gestured
SYSCONFDIR ?= /etc
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
SWIFT      ?= swift
SCRATCH    ?= .build
INSTALL    ?= install
# Example configs, udev rules and unit drop-ins, installed as documentation.
EXAMPLES   := $(wildcard config/examples/*)
SWIFTBUILDFLAGS ?= -c release --static-swift-stdlib

BIN = $(shell $(SWIFT) build $(SWIFTBUILDFLAGS) --scratch-path $(SCRATCH) --show-bin-path 2>/dev/null)

.PHONY: all build completions check check-portable install install-openrc uninstall

all: build

# Targets built first, one `swift build` each, in this order (none by default).
# swift build records what it built only when it finishes, so a build stopped
# part way and started again goes on from the last target finished; the
# emulated arm64 build (scripts/arm64-build.sh), hours long, sets it.
GESTURED_BUILD_STEPS ?=

# The three installed programs only (not the fuzz targets); they share their modules.
build:
	for t in $(GESTURED_BUILD_STEPS); do \
		$(SWIFT) build $(SWIFTBUILDFLAGS) --scratch-path $(SCRATCH) --target $$t || exit 1; \
	done
	for p in gestured gesturectl gesture-run; do \
		$(SWIFT) build $(SWIFTBUILDFLAGS) --scratch-path $(SCRATCH) --product $$p || exit 1; \
	done

# gesturectl's completions come from argument-parser; gestured's are written by
# hand (completions/), as it parses its arguments by hand.
completions: build
	mkdir -p $(SCRATCH)/completions
	# A completion is sourced, not run: no #! line (Debian's bash-completion policy).
	$(BIN)/gesturectl --generate-completion-script bash | sed '1{/^#!/d}' > $(SCRATCH)/completions/gesturectl.bash
	$(BIN)/gesturectl --generate-completion-script zsh > $(SCRATCH)/completions/_gesturectl
	$(BIN)/gesturectl --generate-completion-script fish > $(SCRATCH)/completions/gesturectl.fish

check:
	$(SWIFT) test --scratch-path $(SCRATCH)

check-portable: build
	scripts/check-portable.sh $(BIN)/gestured $(BIN)/gesturectl $(BIN)/gesture-run

install: build completions
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR)/gestured $(DESTDIR)$(UNITDIR) $(DESTDIR)$(USERUNITDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSCONFDIR)/gestured \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	$(INSTALL) -m 0755 $(BIN)/gestured $(BIN)/gesturectl $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 0755 $(BIN)/gesture-run $(DESTDIR)$(LIBEXECDIR)/gestured/
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/gestured.service > $(DESTDIR)$(UNITDIR)/gestured.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/gestured.service
	$(INSTALL) -m 0644 systemd/gestured.socket $(DESTDIR)$(UNITDIR)/gestured.socket
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/user/gestured-actions.service > $(DESTDIR)$(USERUNITDIR)/gestured-actions.service
	chmod 0644 $(DESTDIR)$(USERUNITDIR)/gestured-actions.service
	# The seat's user may read touchscreens (gesturectl lisgd); nothing else.
	$(INSTALL) -d $(DESTDIR)$(UDEVRULESDIR)
	$(INSTALL) -m 0644 udev/70-gestured-touchscreen.rules $(DESTDIR)$(UDEVRULESDIR)/70-gestured-touchscreen.rules
	$(INSTALL) -m 0644 systemd/gestured.sysusers $(DESTDIR)$(SYSUSERSDIR)/gestured.conf
	$(INSTALL) -m 0644 docs/gestured.8 $(DESTDIR)$(MANDIR)/man8/gestured.8
	$(INSTALL) -m 0644 docs/gesturectl.1 $(DESTDIR)$(MANDIR)/man1/gesturectl.1
	$(INSTALL) -m 0644 docs/PROTOCOL.md docs/PHONES.md $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 0644 $(EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/
	$(INSTALL) -m 0644 completions/gestured.bash $(DESTDIR)$(BASHCOMPDIR)/gestured
	$(INSTALL) -m 0644 $(SCRATCH)/completions/gesturectl.bash $(DESTDIR)$(BASHCOMPDIR)/gesturectl
	$(INSTALL) -m 0644 completions/_gestured $(SCRATCH)/completions/_gesturectl $(DESTDIR)$(ZSHCOMPDIR)/
	$(INSTALL) -m 0644 completions/gestured.fish $(SCRATCH)/completions/gesturectl.fish $(DESTDIR)$(FISHCOMPDIR)/
	# The config is the administrator's once it exists: never overwritten.
	test -e $(DESTDIR)$(SYSCONFDIR)/gestured/gestured.toml || \
		$(INSTALL) -m 0644 config/gestured.toml $(DESTDIR)$(SYSCONFDIR)/gestured/gestured.toml

# OpenRC systems (postmarketOS, Alpine, Gentoo) instead of the systemd units: the
# service (no socket activation: the daemon makes its socket) and its options.
# The user and groups come from gestured.sysusers' lines (addgroup/adduser on Alpine).
install-openrc:
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/init.d $(DESTDIR)$(SYSCONFDIR)/conf.d
	sed 's|@BINDIR@|$(BINDIR)|g' openrc/gestured.initd > $(DESTDIR)$(SYSCONFDIR)/init.d/gestured
	chmod 0755 $(DESTDIR)$(SYSCONFDIR)/init.d/gestured
	test -e $(DESTDIR)$(SYSCONFDIR)/conf.d/gestured || \
		$(INSTALL) -m 0644 openrc/gestured.confd $(DESTDIR)$(SYSCONFDIR)/conf.d/gestured

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gestured $(DESTDIR)$(BINDIR)/gesturectl $(DESTDIR)$(LIBEXECDIR)/gestured/gesture-run \
		$(DESTDIR)$(UNITDIR)/gestured.service $(DESTDIR)$(UNITDIR)/gestured.socket \
		$(DESTDIR)$(USERUNITDIR)/gestured-actions.service \
		$(DESTDIR)$(SYSUSERSDIR)/gestured.conf $(DESTDIR)$(MANDIR)/man8/gestured.8 \
		$(DESTDIR)$(MANDIR)/man1/gesturectl.1 $(DESTDIR)$(DOCDIR)/PROTOCOL.md $(DESTDIR)$(DOCDIR)/PHONES.md \
		$(addprefix $(DESTDIR)$(DOCDIR)/examples/,$(notdir $(EXAMPLES))) \
		$(DESTDIR)$(BASHCOMPDIR)/gestured $(DESTDIR)$(BASHCOMPDIR)/gesturectl \
		$(DESTDIR)$(ZSHCOMPDIR)/_gestured $(DESTDIR)$(ZSHCOMPDIR)/_gesturectl \
		$(DESTDIR)$(FISHCOMPDIR)/gestured.fish $(DESTDIR)$(FISHCOMPDIR)/gesturectl.fish \
		$(DESTDIR)$(UDEVRULESDIR)/70-gestured-touchscreen.rules $(DESTDIR)$(SYSCONFDIR)/init.d/gestured
