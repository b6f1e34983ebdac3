import CYAML
