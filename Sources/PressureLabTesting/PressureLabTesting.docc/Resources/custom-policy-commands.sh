# From the top of a PressureLab checkout: the example package, built and tested.
swift build --package-path examples/custom-policy
swift run --package-path examples/custom-policy custom-lab list policies
swift run --package-path examples/custom-policy custom-lab compare photo-browser --policy drop-models-first --policy ios6
swift test --package-path examples/custom-policy
