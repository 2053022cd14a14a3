# Build the tests and run them.
swift test
