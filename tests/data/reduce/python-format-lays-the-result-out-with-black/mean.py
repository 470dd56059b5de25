# python raises ZeroDivisionError in mean; black lays out what is left
def  mean( values ):
    total=sum( values )
    unused = total+1
    return total/len( values )
print( mean( [] ) )
