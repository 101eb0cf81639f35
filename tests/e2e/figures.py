"""Figures as pipesim prints them for people, for the e2e checks that compare a picture or a
table with the JSON: four significant digits, commas between thousands, scientific notation
from 1e7 (core/base/units.cpp, format_number)."""
import math


def reading(v):
    if v == 0:
        return "0"
    rounded = float("%.3e" % v)
    e = math.floor(math.log10(abs(rounded)))
    if e >= 7 or e < -4:
        return "%.3e" % v
    if e >= 3:
        return "{:,.0f}".format(rounded)
    return "%.*f" % (3 - e, rounded)
