#!/usr/bin/env bash
# The tests that share jars, jar files (and read them ahead), registries and web view syncs between threads, built with
# ThreadSanitizer (in .build-tsan) and run; any report TSan prints fails the run. Every lock of the
# libraries is a `CookieLock`, on Linux a pthread lock, which TSan sees (it does not see
# `Synchronization.Mutex`, a futex in the uninstrumented standard library, and would report every access
# made under one); so is every lock of these tests' own helpers. Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
suites='ConcurrencyTests|RowReadAheadTests|CookieJarRegistryTests|CookieChangeTests|CookieJarStoreTests|CookieJarFileTests|SharedFileTests|OpeningRaceTests|CookieStoreSyncTests|PlatformCallTimeoutTests|WebViewStoreMirrorTests'
swift test --scratch-path .build-tsan --sanitize=thread --filter "$suites" "$@"
