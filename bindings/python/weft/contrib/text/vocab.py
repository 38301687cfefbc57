"""mx.contrib.text.vocab: Vocabulary, the token <-> index map (MXNet 1.9.1).

Index 0 is the unknown token, then the reserved tokens, then the counter's tokens by
falling frequency (ties in token order).
"""
import collections

__all__ = ["Vocabulary"]

UNKNOWN_IDX = 0


class Vocabulary:
    """Indexes tokens for text data.

    Parameters
    ----------
    counter : collections.Counter or None
        Token frequencies; tokens are indexed most frequent first.
    most_freq_count : int or None
        Index at most this many of the counter's tokens.
    min_freq : int, default 1
        Skip tokens rarer than this.
    unknown_token : hashable, default '<unk>'
    reserved_tokens : list or None
        Indexed right after the unknown token (no duplicates, not the unknown token).
    """

    def __init__(self, counter=None, most_freq_count=None, min_freq=1, unknown_token="<unk>",
                 reserved_tokens=None):
        if min_freq <= 0:
            raise ValueError("Vocabulary: min_freq must be positive, got %r" % (min_freq,))
        if reserved_tokens is not None:
            reserved_token_set = set(reserved_tokens)
            if unknown_token in reserved_token_set:
                raise ValueError("Vocabulary: reserved_tokens must not contain the unknown token %r"
                                 % (unknown_token,))
            if len(reserved_token_set) != len(reserved_tokens):
                raise ValueError("Vocabulary: reserved_tokens must not contain duplicates")
        self._index_unknown_and_reserved_tokens(unknown_token, reserved_tokens)
        if counter is not None:
            self._index_counter_keys(counter, unknown_token, reserved_tokens, most_freq_count, min_freq)

    def _index_unknown_and_reserved_tokens(self, unknown_token, reserved_tokens):
        self._unknown_token = unknown_token
        self._idx_to_token = [unknown_token]
        if reserved_tokens is None:
            self._reserved_tokens = None
        else:
            self._reserved_tokens = list(reserved_tokens)
            self._idx_to_token.extend(reserved_tokens)
        self._token_to_idx = {token: idx for idx, token in enumerate(self._idx_to_token)}

    def _index_counter_keys(self, counter, unknown_token, reserved_tokens, most_freq_count, min_freq):
        if not isinstance(counter, collections.Counter):
            raise TypeError("Vocabulary: counter must be a collections.Counter, got %s" % type(counter).__name__)
        special = set(reserved_tokens) if reserved_tokens is not None else set()
        special.add(unknown_token)
        token_freqs = sorted(counter.items(), key=lambda x: x[0])
        token_freqs.sort(key=lambda x: x[1], reverse=True)
        token_cap = len(special) + (len(counter) if most_freq_count is None else most_freq_count)
        for token, freq in token_freqs:
            if freq < min_freq or len(self._idx_to_token) == token_cap:
                break
            if token not in special:
                self._idx_to_token.append(token)
                self._token_to_idx[token] = len(self._idx_to_token) - 1

    def __len__(self):
        return len(self._idx_to_token)

    @property
    def token_to_idx(self):
        """dict token -> index."""
        return self._token_to_idx

    @property
    def idx_to_token(self):
        """list index -> token."""
        return self._idx_to_token

    @property
    def unknown_token(self):
        return self._unknown_token

    @property
    def reserved_tokens(self):
        return self._reserved_tokens

    def to_indices(self, tokens):
        """The index of a token, or the list of indices of a list of tokens (unknown -> 0)."""
        to_reduce = not isinstance(tokens, list)
        if to_reduce:
            tokens = [tokens]
        indices = [self._token_to_idx.get(token, UNKNOWN_IDX) for token in tokens]
        return indices[0] if to_reduce else indices

    def to_tokens(self, indices):
        """The token at an index, or the tokens at a list of indices."""
        to_reduce = not isinstance(indices, list)
        if to_reduce:
            indices = [indices]
        max_idx = len(self._idx_to_token) - 1
        tokens = []
        for idx in indices:
            if not isinstance(idx, int) or idx < 0 or idx > max_idx:
                raise ValueError("Token index %r in the provided `indices` is invalid." % (idx,))
            tokens.append(self._idx_to_token[idx])
        return tokens[0] if to_reduce else tokens
