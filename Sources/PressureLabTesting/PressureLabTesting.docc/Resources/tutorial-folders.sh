# Anywhere on disk: an empty folder for your package, with one folder a target.
mkdir MyPolicies && cd MyPolicies
mkdir -p Sources/CustomPolicies Sources/custom-lab Tests/CustomPoliciesTests
