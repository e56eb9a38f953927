from printkit.cli import main

if __name__ == "__main__":  # a worker process started by spawn imports this module too
    main()
