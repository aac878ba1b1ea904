"""tagstream/_native.pyi says what the extension module has: the same functions with the same
parameters and defaults, the same classes with the same fields."""

import ast
import inspect
from pathlib import Path

import tagstream

STUB = ast.parse((Path(__file__).resolve().parents[1] / "tagstream" / "_native.pyi").read_text())


def stub_parameters(function):
    """(name, default as source) of a stub function's parameters, `self` left out."""
    arguments = function.args
    defaults = [None] * (len(arguments.args) - len(arguments.defaults)) + arguments.defaults
    return [
        (arg.arg, repr(ast.literal_eval(default)) if default is not None else None)
        for arg, default in zip(arguments.args, defaults)
        if arg.arg != "self"
    ]


def runtime_parameters(function):
    return [
        (p.name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in inspect.signature(function).parameters.values()
        if p.name != "self"
    ]


def test_functions_match():
    functions = [node for node in STUB.body if isinstance(node, ast.FunctionDef)]
    names = {"links", "text", "tokens", "warc_records", "warc_links", "warc_text"}
    assert {f.name for f in functions} == names
    for function in functions:
        runtime = getattr(tagstream._native, function.name)
        assert stub_parameters(function) == runtime_parameters(runtime)
    for name in ("records", "links", "text"):
        assert getattr(tagstream.warc, name) is getattr(tagstream._native, f"warc_{name}")


def limit_error():
    try:
        tagstream.Tokenizer(max_carry=1).feed(b"<!--" * 100)
    except tagstream.LimitError as error:
        return error
    raise AssertionError("no LimitError")


def test_classes_match():
    classes = {node.name: node for node in STUB.body if isinstance(node, ast.ClassDef)}
    exported = tagstream.__all__ + tagstream.warc.__all__
    assert set(classes) == {name for name in exported if name[0].isupper()}
    for name, node in classes.items():
        runtime = getattr(tagstream._native, name)
        if name == "LimitError":  # its fields are set on each instance
            runtime = limit_error()
        for item in node.body:
            if isinstance(item, ast.AnnAssign):
                assert hasattr(runtime, item.target.id), f"{name}.{item.target.id}"
            elif isinstance(item, ast.FunctionDef) and item.name == "__init__":
                assert stub_parameters(item) == runtime_parameters(runtime)
            elif isinstance(item, ast.FunctionDef) and item.name.startswith("__"):
                assert hasattr(runtime, item.name), f"{name}.{item.name}"
            elif isinstance(item, ast.FunctionDef):
                assert stub_parameters(item) == runtime_parameters(getattr(runtime, item.name))
