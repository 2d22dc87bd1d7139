"""What a cloud holds, of every kind of object the suite touches
(listing.py), and the before-and-after check that a run left it as it
found it (guard.py)."""
