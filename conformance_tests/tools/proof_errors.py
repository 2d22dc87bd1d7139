"""The cleanup proof's one error: the proof could not be made (not a
leftover, which is a FAIL). In a module of its own because
cleanup_proof.py runs as ``__main__`` and its helpers raise it too."""


class ProofError(Exception):
    pass
