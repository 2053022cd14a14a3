# The baseline the test `matchesItsBaseline` holds your policies to: two bundled scenarios
# under both of your policies, saved in baselines/ (commit it with your package).
swift run --skip-build custom-lab baseline save drop-models-first photo-browser day-of-apps \
    --policy drop-models-first --termination oldest-first
