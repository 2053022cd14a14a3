# An empty package of your own, with a library for your policies and a test target.
mkdir MyPolicies && cd MyPolicies
swift package init --type library --name CustomPolicies
