"""A script under the command behaves as `python script.py` (profiler.md §2.4; N6), and
in-script API calls follow the CLI table (§1.4)."""

import json
import os

from conftest import base_env, load, run, write


def test_script_semantics_and_spawn(work):
    write(work, "sub/s.py", """
        import json, multiprocessing, os, sys
        import proton

        def child(queue):
            queue.put(__name__)

        def main():
            ctx = multiprocessing.get_context("spawn")
            queue = ctx.Queue()
            p = ctx.Process(target=child, args=(queue,))
            p.start()
            spawned = queue.get(timeout=60)
            p.join()
            print(json.dumps({
                "argv": sys.argv, "name": __name__, "file": __file__, "path0": sys.path[0],
                "main_is_self": sys.modules["__main__"] is sys.modules[__name__],
                "spawned": spawned, "exitcode": p.exitcode,
                "start": proton.start("other"), "cli": proton.flags.command_line,
                "bootstrap_on_path": any("proton_bootstrap" in p for p in sys.path),
            }))

        if __name__ == "__main__":
            main()
    """)
    result = run(["sub/s.py", "x", "--flag"], work)
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    assert info["argv"] == ["sub/s.py", "x", "--flag"]
    assert info["name"] == "__main__"
    assert info["file"] == os.path.join(str(work), "sub", "s.py")
    assert info["path0"] == os.path.join(str(work), "sub")
    assert info["main_is_self"] is True
    assert info["spawned"] == "__mp_main__"
    assert info["exitcode"] == 0
    assert info["start"] is None  # start() is ignored in CLI mode
    assert info["cli"] is True
    assert info["bootstrap_on_path"] is False
    assert not os.path.exists(os.path.join(work, "other.hatchet"))
    assert os.path.exists(os.path.join(work, "proton.hatchet"))


def test_cli_api_table(work):
    write(work, "api.py", """
        import proton

        def check(call, message):
            try:
                call()
            except ValueError as error:
                assert str(error) == message, str(error)
            else:
                raise AssertionError("no error: " + message)

        @proton.profile
        def decorated():
            with proton.scope("in_decorated"):
                return 7

        assert decorated() == 7                      # D2
        proton.deactivate()                          # D1
        with proton.scope("while_inactive"):
            pass
        proton.activate()
        proton.activate(0)
        with proton.scope("active_again"):
            pass
        check(lambda: proton.activate(1),
              "Only one session can be activated when running from the command line.")
        check(lambda: proton.deactivate(2),
              "Only one session can be deactivated when running from the command line.")
        check(lambda: proton.finalize(1),
              "Only one session can be finalized when running from the command line.")
        assert proton.data.get(None) is None
        print("ok")
    """)
    result = run(["-n", "api", "api.py"], work)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"
    names = [c["frame"]["name"] for c in load(os.path.join(work, "api.hatchet"))[0]["children"]]
    assert "in_decorated" in names and "active_again" in names
    assert "while_inactive" not in names


def test_finalize_in_script_writes_then(work):
    write(work, "fin.py", """
        import os, proton
        with proton.scope("before"):
            pass
        proton.finalize()
        print(os.path.exists("fin.hatchet"))
        with proton.scope("after"):
            pass
    """)
    result = run(["-n", "fin", "fin.py"], work)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True\n"
    names = [c["frame"]["name"] for c in load(os.path.join(work, "fin.hatchet"))[0]["children"]]
    assert names == ["before"]


def test_stdout_name(work):
    write(work, "out.py", """
        import proton
        print("script output")
        with proton.scope("to_stdout"):
            pass
    """)
    result = run(["-n", "-", "out.py"], work)
    assert result.returncode == 0, result.stderr
    head, _, doc = result.stdout.partition("\n")
    assert head == "script output"
    assert json.loads(doc)[0]["children"][0]["frame"]["name"] == "to_stdout"
    assert [f for f in os.listdir(work) if f.endswith(".hatchet")] == []


def test_chained_sitecustomize_and_pythonpath(work):
    write(work, "site_dir/sitecustomize.py", "import builtins\nbuiltins.CHAINED = True\n")
    write(work, "c.py", "import builtins; print(getattr(builtins, 'CHAINED', False))\n")
    result = run(["c.py"], work, env=base_env(PYTHONPATH=os.path.join(str(work), "site_dir")))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True\n"
