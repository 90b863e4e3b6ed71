"""scripts/fpga (a script without the .py suffix) imported as a module, for the tests beside it."""
import importlib.machinery
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load():
    loader = importlib.machinery.SourceFileLoader("fpga_cli", str(ROOT / "scripts" / "fpga"))
    spec = importlib.util.spec_from_loader("fpga_cli", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
