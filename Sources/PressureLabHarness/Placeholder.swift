enum HPlaceholder {}
