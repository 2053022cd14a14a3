import CustomPolicies
import PressureLab
import PressureLabCommandLine

// PressureLab's command line with our two policies registered: every subcommand takes
// `--policy drop-models-first` and `--termination oldest-first`, sweep files and baselines
// name them, and `custom-lab list policies` lists them beside the built-ins.
PressureLabCommandLine.main(cleanup: [Cleanup(DropModelsFirst())], termination: [Termination(OldestFirst())])
