# Your program, built in the step before: your policies beside the built-in ones.
swift run --skip-build custom-lab list policies
