#!/bin/sh
# Regenerates Sources/GestureConfig/DefaultConfig.swift from config/gestured.toml.
set -eu
cd "$(dirname "$0")/.."
{
  echo '// The built-in configuration: config/gestured.toml, embedded so that the daemon and'
  echo '// gesturectl run without an installed file. A test keeps the two identical.'
  echo 'public let defaultConfigText = #"""'
  cat config/gestured.toml
  echo ''
  echo '"""#'
} > Sources/GestureConfig/DefaultConfig.swift
