# In MyPolicies: build everything (PressureLab too, the first time: several minutes).
swift build
