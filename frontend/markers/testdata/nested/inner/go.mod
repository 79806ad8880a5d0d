module example.com/inner

go 1.26
