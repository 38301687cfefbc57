"""mx.contrib.text.embedding: token embeddings read from text files (MXNet 1.9.1).

Note [No downloads]
    MXNet's GloVe and FastText download their pre-trained files into
    ``<embedding_root>/<glove|fasttext>/`` on first use. Weft downloads nothing: the
    file must already be there (MXNet's own cache layout, so a machine that ran
    MXNet has them), and a missing one is a WeftIOError naming the exact path to
    place it at. The SHA-1 check MXNet does after downloading is not done on a
    local file. CustomEmbedding reads any local file in the same format: one token
    per line followed by its vector, elements separated by elem_delim.
"""
import io
import logging
import os
import warnings

from ... import base
from ... import ndarray as nd
from ... import registry
from ...base import WeftIOError
from . import vocab

__all__ = ["register", "create", "get_pretrained_file_names", "TokenEmbedding", "GloVe", "FastText",
           "CustomEmbedding", "CompositeEmbedding"]


class _TokenEmbedding(vocab.Vocabulary):
    """Base of the token embeddings: a Vocabulary whose every index has a vector
    (``idx_to_vec``, shape (len(self), vec_len); row 0 is the unknown token's)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._vec_len = None
        self._idx_to_vec = None

    @classmethod
    def _get_pretrained_file(cls, embedding_root, pretrained_file_name):
        path = os.path.join(os.path.expanduser(embedding_root), cls.__name__.lower(), pretrained_file_name)
        if not os.path.isfile(path):
            # Note [No downloads]
            raise WeftIOError("%s: the pre-trained file %s is not present and Weft does not download it; place "
                              "%s at %s (or read any local file with CustomEmbedding)"
                              % (cls.__name__, pretrained_file_name, pretrained_file_name, path))
        return path

    def _load_embedding(self, pretrained_file_path, elem_delim, init_unknown_vec, encoding="utf8"):
        pretrained_file_path = os.path.expanduser(pretrained_file_path)
        if not os.path.isfile(pretrained_file_path):
            raise ValueError("`pretrained_file_path` must be a valid path to the pre-trained token embedding "
                             "file, got %r" % (pretrained_file_path,))
        logging.info("Loading pre-trained token embedding vectors from %s", pretrained_file_path)
        vec_len = None
        all_elems = []
        tokens = set()
        loaded_unknown_vec = None
        with io.open(pretrained_file_path, "r", encoding=encoding) as f:
            for line_num, line in enumerate(f, 1):
                elems = line.rstrip().split(elem_delim)
                if len(elems) <= 1:
                    raise ValueError("At line %d of the pre-trained text embedding file: the data format of the "
                                     "pre-trained token embedding file %s is unexpected."
                                     % (line_num, pretrained_file_path))
                token = elems[0]
                try:
                    elems = [float(i) for i in elems[1:]]
                except ValueError:
                    raise ValueError("At line %d of the pre-trained token embedding file %s: the vector of token "
                                     "%s holds a value that is not a number" % (line_num, pretrained_file_path,
                                                                                token)) from None
                if token == self.unknown_token and loaded_unknown_vec is None:
                    loaded_unknown_vec = elems
                    tokens.add(self.unknown_token)
                elif token in tokens:
                    warnings.warn("At line %d of the pre-trained token embedding file: the embedding vector for "
                                  "token %s has been loaded and a duplicate embedding for the same token is seen "
                                  "and skipped." % (line_num, token))
                elif len(elems) == 1:
                    warnings.warn("At line %d of the pre-trained text embedding file: token %s with 1-dimensional "
                                  "vector %s is likely a header and is skipped." % (line_num, token, elems))
                else:
                    if vec_len is None:
                        vec_len = len(elems)
                        # a slot for the unknown token first: its index is 0
                        all_elems.extend([0] * vec_len)
                    elif len(elems) != vec_len:
                        raise ValueError("At line %d of the pre-trained token embedding file: the dimension of "
                                         "token %s is %d but the dimension of previous tokens is %d. Dimensions "
                                         "of all the tokens must be the same." % (line_num, token, len(elems),
                                                                                  vec_len))
                    all_elems.extend(elems)
                    self._idx_to_token.append(token)
                    self._token_to_idx[token] = len(self._idx_to_token) - 1
                    tokens.add(token)
        if vec_len is None:
            raise ValueError("the pre-trained token embedding file %s holds no vector" % pretrained_file_path)
        self._vec_len = vec_len
        self._idx_to_vec = nd.array(all_elems).reshape((-1, self.vec_len))
        if loaded_unknown_vec is None:
            self._idx_to_vec[vocab.UNKNOWN_IDX] = init_unknown_vec(shape=self.vec_len)
        else:
            self._idx_to_vec[vocab.UNKNOWN_IDX] = nd.array(loaded_unknown_vec)

    def _index_tokens_from_vocabulary(self, vocabulary):
        self._token_to_idx = vocabulary.token_to_idx.copy()
        self._idx_to_token = vocabulary.idx_to_token[:]
        self._unknown_token = vocabulary.unknown_token
        self._reserved_tokens = vocabulary.reserved_tokens[:] if vocabulary.reserved_tokens is not None else None

    def _set_idx_to_vec_by_embeddings(self, token_embeddings, vocab_len, vocab_idx_to_token):
        new_vec_len = sum(embed.vec_len for embed in token_embeddings)
        new_idx_to_vec = nd.zeros(shape=(vocab_len, new_vec_len))
        col_start = 0
        for embed in token_embeddings:
            col_end = col_start + embed.vec_len
            new_idx_to_vec[0, col_start:col_end] = embed.idx_to_vec[0]
            if vocab_len > 1:
                new_idx_to_vec[1:, col_start:col_end] = embed.get_vecs_by_tokens(vocab_idx_to_token[1:])
            col_start = col_end
        self._vec_len = new_vec_len
        self._idx_to_vec = new_idx_to_vec

    def _build_embedding_for_vocabulary(self, vocabulary):
        if vocabulary is not None:
            if not isinstance(vocabulary, vocab.Vocabulary):
                raise TypeError("The argument `vocabulary` must be an instance of "
                                "weft.contrib.text.vocab.Vocabulary, got %s" % type(vocabulary).__name__)
            self._set_idx_to_vec_by_embeddings([self], len(vocabulary), vocabulary.idx_to_token)
            self._index_tokens_from_vocabulary(vocabulary)

    @property
    def vec_len(self):
        """The length of each vector."""
        return self._vec_len

    @property
    def idx_to_vec(self):
        """NDArray (len(self), vec_len): the vector of each index."""
        return self._idx_to_vec

    def get_vecs_by_tokens(self, tokens, lower_case_backup=False):
        """The vector of a token, or an NDArray of the vectors of a list of tokens
        (unknown tokens get the unknown vector; with lower_case_backup a token not
        found is looked up again in lower case)."""
        to_reduce = not isinstance(tokens, list)
        if to_reduce:
            tokens = [tokens]
        if not lower_case_backup:
            indices = [self.token_to_idx.get(token, vocab.UNKNOWN_IDX) for token in tokens]
        else:
            indices = [self.token_to_idx[token] if token in self.token_to_idx
                       else self.token_to_idx.get(token.lower(), vocab.UNKNOWN_IDX) for token in tokens]
        vecs = nd.Embedding(nd.array(indices), self.idx_to_vec, input_dim=self.idx_to_vec.shape[0],
                            output_dim=self.idx_to_vec.shape[1])
        return vecs[0] if to_reduce else vecs

    def update_token_vectors(self, tokens, new_vectors):
        """Replaces the vectors of known tokens (a token, or a list) with new_vectors
        (1-D for one token, else (len(tokens), vec_len))."""
        if self.idx_to_vec is None:
            raise ValueError("The property `idx_to_vec` has not been properly set.")
        if not isinstance(new_vectors, nd.NDArray):
            raise TypeError("`new_vectors` must be an NDArray, got %s" % type(new_vectors).__name__)
        if not isinstance(tokens, list) or len(tokens) == 1:
            if len(new_vectors.shape) not in (1, 2):
                raise ValueError("`new_vectors` must be a 1-D or 2-D NDArray if `tokens` is a singleton.")
            if not isinstance(tokens, list):
                tokens = [tokens]
            if len(new_vectors.shape) == 1:
                new_vectors = new_vectors.expand_dims(0)
        elif len(new_vectors.shape) != 2:
            raise ValueError("`new_vectors` must be a 2-D NDArray if `tokens` is a list of multiple strings.")
        if tuple(new_vectors.shape) != (len(tokens), self.vec_len):
            raise ValueError("The length of new_vectors must be equal to the number of tokens and the width of "
                             "new_vectors must be equal to the dimension of embeddings of the glossary.")
        indices = []
        for token in tokens:
            if token not in self.token_to_idx:
                raise ValueError("Token %s is unknown. To update the embedding vector for an unknown token, please "
                                 "specify it explicitly as the `unknown_token` %s in `tokens`. This is to avoid "
                                 "unintended updates." % (token, self.idx_to_token[vocab.UNKNOWN_IDX]))
            indices.append(self.token_to_idx[token])
        for row, idx in enumerate(indices):
            self._idx_to_vec[idx] = new_vectors[row]

    @classmethod
    def _check_pretrained_file_names(cls, pretrained_file_name):
        embedding_name = cls.__name__.lower()
        if pretrained_file_name not in cls.pretrained_file_name_sha1:
            raise KeyError("Cannot find pretrained file %s for token embedding %s. Valid pretrained files for "
                           "embedding %s: %s" % (pretrained_file_name, embedding_name, embedding_name,
                                                 ", ".join(cls.pretrained_file_name_sha1.keys())))


TokenEmbedding = _TokenEmbedding  # the name the docs use for MXNet's _TokenEmbedding

register = registry.get_register_func(_TokenEmbedding, "token embedding")
_create = registry.get_create_func(_TokenEmbedding, "token embedding")


def create(embedding_name, **kwargs):
    """A registered token embedding by name ('glove', 'fasttext', or one registered by the user)."""
    return _create(embedding_name, **kwargs)


def get_pretrained_file_names(embedding_name=None):
    """The pre-trained file names of one registered embedding (a list), or of all of
    them (a dict name -> list)."""
    reg = registry.get_registry(_TokenEmbedding)
    if embedding_name is not None:
        if embedding_name not in reg:
            raise KeyError("Cannot find `embedding_name` %s. Use `get_pretrained_file_names("
                           "embedding_name=None).keys()` to get all the valid embedding names." % embedding_name)
        return list(reg[embedding_name].pretrained_file_name_sha1.keys())
    return {name: list(cls.pretrained_file_name_sha1.keys()) for name, cls in reg.items()}


def _default_root():
    return os.path.join(base.data_dir(), "embeddings")


# The file names MXNet 1.9.1 accepts (values: None, no hash is checked here, Note [No downloads]).
_GLOVE_FILES = ["glove.42B.300d.txt", "glove.6B.50d.txt", "glove.6B.100d.txt", "glove.6B.200d.txt",
                "glove.6B.300d.txt", "glove.840B.300d.txt", "glove.twitter.27B.25d.txt",
                "glove.twitter.27B.50d.txt", "glove.twitter.27B.100d.txt", "glove.twitter.27B.200d.txt"]
# A subset of MXNet's 294 FastText files: the English, Simple English and Wikipedia-news ones
# and the most used languages. A file of another language is read with CustomEmbedding.
_FASTTEXT_FILES = ["crawl-300d-2M.vec", "wiki-news-300d-1M.vec", "wiki-news-300d-1M-subword.vec",
                   "wiki.simple.vec", "wiki.en.vec", "wiki.de.vec", "wiki.es.vec", "wiki.fr.vec", "wiki.it.vec",
                   "wiki.ja.vec", "wiki.nl.vec", "wiki.pl.vec", "wiki.pt.vec", "wiki.ru.vec", "wiki.zh.vec"]


@register
class GloVe(_TokenEmbedding):
    """GloVe vectors (Pennington et al. 2014) read from
    ``<embedding_root>/glove/<pretrained_file_name>`` (Note [No downloads])."""
    pretrained_file_name_sha1 = dict.fromkeys(_GLOVE_FILES)

    def __init__(self, pretrained_file_name="glove.840B.300d.txt", embedding_root=None,
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        GloVe._check_pretrained_file_names(pretrained_file_name)
        super().__init__(**kwargs)
        path = GloVe._get_pretrained_file(embedding_root or _default_root(), pretrained_file_name)
        self._load_embedding(path, " ", init_unknown_vec)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


@register
class FastText(_TokenEmbedding):
    """fastText vectors (Bojanowski et al. 2017) read from
    ``<embedding_root>/fasttext/<pretrained_file_name>`` (Note [No downloads])."""
    pretrained_file_name_sha1 = dict.fromkeys(_FASTTEXT_FILES)

    def __init__(self, pretrained_file_name="wiki.simple.vec", embedding_root=None,
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        FastText._check_pretrained_file_names(pretrained_file_name)
        super().__init__(**kwargs)
        path = FastText._get_pretrained_file(embedding_root or _default_root(), pretrained_file_name)
        self._load_embedding(path, " ", init_unknown_vec)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


class CustomEmbedding(_TokenEmbedding):
    """Vectors read from a local file: each line a token and its vector's elements,
    separated by elem_delim. With ``vocabulary``, the embedding is indexed as the
    vocabulary (its tokens missing from the file get the unknown vector)."""

    def __init__(self, pretrained_file_path, elem_delim=" ", encoding="utf8", init_unknown_vec=nd.zeros,
                 vocabulary=None, **kwargs):
        super().__init__(**kwargs)
        self._load_embedding(pretrained_file_path, elem_delim, init_unknown_vec, encoding)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


class CompositeEmbedding(_TokenEmbedding):
    """Several embeddings' vectors concatenated, indexed as ``vocabulary``."""

    def __init__(self, vocabulary, token_embeddings):  # pylint: disable=super-init-not-called
        if not isinstance(vocabulary, vocab.Vocabulary):
            raise TypeError("CompositeEmbedding: vocabulary must be a Vocabulary, got %s"
                            % type(vocabulary).__name__)
        if not isinstance(token_embeddings, list):
            token_embeddings = [token_embeddings]
        for embed in token_embeddings:
            if not isinstance(embed, _TokenEmbedding):
                raise TypeError("CompositeEmbedding: token_embeddings must be token embeddings, got %s"
                                % type(embed).__name__)
        self._index_tokens_from_vocabulary(vocabulary)
        self._set_idx_to_vec_by_embeddings(token_embeddings, len(self), self.idx_to_token)
