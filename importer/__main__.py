from importer.cli import main

main()
