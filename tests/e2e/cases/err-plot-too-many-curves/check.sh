# Refused before any row is written, and no file is left behind.
[ ! -e too-many.svg ]
