# photo-browser is a scenario compiled into PressureLab: it runs from any folder.
swift run --skip-build custom-lab compare photo-browser --policy drop-models-first --policy ios6
