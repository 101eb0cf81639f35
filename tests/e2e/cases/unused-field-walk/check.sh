# Every key a user sets either changes what diagnose prints or is named unused (field_walk.py).
python3 ../../field_walk.py "$PIPESIM"
