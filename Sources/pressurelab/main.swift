// `pressurelab`: PressureLab's command line with the built-in policies only (a program of
// your own registers its policies the same way: docs/extending.md, "Your own policy").
import PressureLabCommandLine

PressureLabCommandLine.main()
