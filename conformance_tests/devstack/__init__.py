"""Run the project's Zuul jobs on a real DevStack in a container here
(issue 61)."""
